// What functors see on the device (and on the host backend): the per-launch context, the handles
// that generated proxies derive from, edge and message lists, and the vote/superstep built-ins.
// Everything here is MEDUSA_HD and compiles as CUDA or as plain C++.
#pragma once

#include <medusa/neighbor_sets.h>
#include <medusa/types.h>

#include <cstdint>

namespace medusa {

// Where sendMsg puts a message in a pull-fused launch (docs/design/pull-fusion.md): one edge's
// slot, folded by the thread that combines the edge's tail.
template <class Msg>
struct FoldSlot {
  Msg value;
  bool sent;
};

namespace detail {
struct StepState;
}  // namespace detail

// Device pointers (host pointers on the host backend) one EMV launch needs. Passed by value to
// kernels (as a __grid_constant__ parameter on CUDA); handles keep a pointer to it.
template <class Msg>
struct KernelCtx {
  VertexId vertex_count = 0;
  EdgeIndex edge_count = 0;
  const EdgeIndex* out_offsets = nullptr;  // V + 1
  const VertexId* out_dst = nullptr;       // E, CSR order
  const VertexId* edge_src = nullptr;      // E, CSR order
  const EdgeIndex* rid = nullptr;          // E
  const EdgeIndex* in_offsets = nullptr;   // V + 1
  Msg* messages = nullptr;                 // E * m slots; edge e writes slots rid[e]*m ..
  std::uint32_t* send_counts = nullptr;    // E; only when m > 1
  std::uint32_t m = 1;
  const Msg* combined = nullptr;           // V; valid after Combiner()
  std::uint8_t* next_active_vertex = nullptr;  // V flags for the next superstep; null if unused
  std::uint8_t* next_active_edge = nullptr;    // E flags for the next superstep; null if unused
  std::uint8_t* received = nullptr;            // V flags: received a message this superstep
  // Programs with priorities (ProgramUses::priorities) on a backend that buckets them: V slots,
  // each the lowest priority given to SetActive(priority) this superstep (~0: none). Null otherwise:
  // the priority is dropped and the vertex is simply active.
  std::uint64_t* next_priority = nullptr;
  int* votes = nullptr;                        // see VoteSlot
  // In a batch of supersteps (CUDA): SetActive() on a vertex also appends it, once, to this queue
  // and counts it and its out-degree in next_active_counts[0] and [1] (the next frontier without a
  // pass over every vertex's flag). Null otherwise.
  VertexId* next_active_queue = nullptr;
  unsigned long long* next_active_counts = nullptr;
  // In a batch of supersteps (cuda/superstep_batch.cuh): non-zero once a superstep of the batch
  // stopped the run, when the launches of the later ones do nothing. Null outside batches.
  const int* halted = nullptr;
  // Partitioned runs (gpuCount > 1): IDs above are local to the partition. These give functors the
  // global view; all null in a single-partition run.
  const VertexId* global_id = nullptr;          // local vertex -> global ID
  const std::uint32_t* out_degree = nullptr;    // global out-degree of each local vertex
  const std::uint32_t* in_degree = nullptr;     // global in-degree of each local vertex
  // Neighbour sets (partition/plan.h NeighborRows): each local vertex's whole out-row in global IDs,
  // sorted. Null in a single-partition run, whose CSR rows are sorted instead.
  const EdgeIndex* neighbor_offsets = nullptr;  // local vertices + 1
  const VertexId* neighbor_ids = nullptr;
  // Pull-fused Combiner: non-null in the copy of the context that runs one in-edge's work; sendMsg
  // writes here instead of the message buffer (m is 1 then).
  FoldSlot<Msg>* fold_slot = nullptr;
  // Layout::ColumnMajor / Hybrid (common/edge_layout.h), set only for thread-per-vertex ELIST
  // launches: out-edge i < column_width of vertex v sits at column slot i * vertex_count + v, which
  // holds its tail and rid (its CSR position is out_offsets[v] + i, as ever). Null under CSR.
  const VertexId* column_dst = nullptr;
  const EdgeIndex* column_rid = nullptr;
  std::uint32_t column_width = 0;
  // CUDA: the session's votes and superstep number for Continue()/Halt()/Superstep(), in its own
  // device memory (detail::bind_step_state). Unused on the host backend.
  const detail::StepState* step_state = nullptr;
  // Sends by vertex id (by_id.h): one value per vertex, filled by InitMessageBuffer and folded into
  // combined[] by the Combiner; null unless the program sends by id. `sent_by_id_op` is
  // Config::combinerOpType, which the atomic fold of each send follows.
  Msg* sent_by_id = nullptr;
  int sent_by_id_op = 0;
  // Partitioned runs (by_id.h): sent_by_id is an outbox indexed by global ID, and a send flags its
  // target here (the session delivers the flagged ones to their owners); null in one partition.
  std::uint8_t* sent_by_id_flags = nullptr;
  // Partitioned runs: the program's VertexArrays over the whole graph (global IDs), of which the
  // fields read by id (kByIdRead) are set; vertex_at reads those. Null in one partition.
  const void* by_id_arrays = nullptr;
};

enum VoteSlot { kVoteContinue = 0, kVoteHalt = 1, kVoteTooManyMessages = 2, kVoteSlots = 3 };

namespace detail {

MEDUSA_HD inline std::uint32_t atomic_inc(std::uint32_t* p) {
#if defined(__CUDA_ARCH__)
  return atomicAdd(p, 1u);
#else
  return __atomic_fetch_add(p, 1u, __ATOMIC_RELAXED);
#endif
}

// Every writer stores the same value, so a relaxed store is enough.
MEDUSA_HD inline void flag_store(int* p) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<volatile int*>(p) = 1;
#else
  __atomic_store_n(p, 1, __ATOMIC_RELAXED);
#endif
}
MEDUSA_HD inline void flag_store(std::uint8_t* p) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<volatile std::uint8_t*>(p) = 1;
#else
  __atomic_store_n(p, std::uint8_t{1}, __ATOMIC_RELAXED);
#endif
}

// A vote word that every element of a launch may set (Continue(), Halt()): read first, stored only
// while still clear. The read is usually served by the SM's L1 once the word is set; stores alone
// queue every warp with a voter on one L2 line (measured: docs/tuning.md, "Measurements behind the
// defaults"). A stale 0 only costs a redundant store; L1 holds nothing across launches.
MEDUSA_HD inline void vote_store(int* p) {
#if defined(__CUDA_ARCH__)
  if (*p == 0) *reinterpret_cast<volatile int*>(p) = 1;
#else
  __atomic_store_n(p, 1, __ATOMIC_RELAXED);
#endif
}

// SetActive() in a batch of supersteps (KernelCtx::next_active_queue): sets v's flag by its word
// (the flags are allocated in whole words) and, the first time, queues and counts v. The lanes of
// a warp that queue at once take their places and add their out-degrees with one atomic each:
// frontiers of tens of thousands would otherwise queue up on two counters.
#if defined(__CUDACC__)
// Sets byte flag v to 1 through its word (the flags are allocated in whole words): true for the
// one call that set it, which then queues v (SetActive here, a push's receivers in push_combine.cuh).
__device__ inline bool claim_flag(std::uint8_t* flags, VertexId v) {
  auto* word = reinterpret_cast<unsigned int*>(flags + (v & ~VertexId{3}));
  const unsigned int bit = 1u << ((v & 3u) * 8u);
  return (atomicOr(word, bit) & bit) == 0;
}
#endif
template <class Msg>
MEDUSA_HD inline void queue_active(const KernelCtx<Msg>& c, VertexId v) {
#if defined(__CUDA_ARCH__)
  const unsigned int lanes = __activemask();
  const unsigned long long out_degree = c.out_offsets[v + 1] - c.out_offsets[v];  // (read beside the claim)
  const bool first = claim_flag(c.next_active_vertex, v);
  const unsigned int queuing = __ballot_sync(lanes, first);
  if (queuing == 0) return;
  const unsigned long long degree = first ? out_degree : 0;
  unsigned long long degrees = 0;
  for (unsigned int m = queuing; m != 0; m &= m - 1) degrees += __shfl_sync(lanes, degree, __ffs(m) - 1);
  unsigned int lane, below;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(below));
  const int leader = __ffs(queuing) - 1;
  unsigned long long base = 0;
  if (static_cast<int>(lane) == leader) {
    base = atomicAdd(&c.next_active_counts[0], static_cast<unsigned long long>(__popc(queuing)));
    atomicAdd(&c.next_active_counts[1], degrees);
  }
  base = __shfl_sync(lanes, base, leader);
  if (first) c.next_active_queue[base + __popc(queuing & below)] = v;
#else
  (void)c, (void)v;  // (only the CUDA backend queues)
#endif
}

// SetActive(priority): *slot = min(*slot, priority).
MEDUSA_HD inline void priority_min(std::uint64_t* slot, std::uint64_t priority) {
#if defined(__CUDA_ARCH__)
  atomicMin(reinterpret_cast<unsigned long long*>(slot), static_cast<unsigned long long>(priority));
#else
  std::uint64_t seen = __atomic_load_n(slot, __ATOMIC_RELAXED);
  while (priority < seen &&
         !__atomic_compare_exchange_n(slot, &seen, priority, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
#endif
}

// Votes and superstep for the free functions Continue()/Halt()/Superstep(), one per session (so that
// sessions run concurrently, each on its own thread and stream). The backend sets them before each
// superstep: on CUDA in the session's device memory (KernelCtx::step_state), on the host in the
// session, reached through the thread that runs it.
struct StepState {
  int* votes;
  std::uint32_t superstep;
};
#if defined(__CUDACC__)
// The launching session's StepState, per block: each kernel that runs functors binds it first from
// its launch context. Every thread stores the same pointer and reads only after its own store.
static __shared__ const StepState* s_step_state;
__device__ __forceinline__ void bind_step_state(const StepState* s) { s_step_state = s; }
#endif
// Host side: the StepState of the session this thread runs (its iteration function's Continue(),
// and the host backend's functors: its OpenMP workers bind the session thread's pointer).
// Outside any Run: no votes, superstep 0.
inline constexpr StepState kNoStepState{nullptr, 0};
inline thread_local const StepState* host_step_state = &kNoStepState;
inline void bind_host_step_state(const StepState* s) { host_step_state = s; }

template <class Msg>
MEDUSA_HD inline VertexId global_vertex(const KernelCtx<Msg>& c, VertexId local) {
  return c.global_id != nullptr ? c.global_id[local] : local;
}

// Local vertex v's out-neighbour row (sorted when the program uses neighbour sets). A partition's
// local edges hold part of it: there it is the whole row from neighbor_ids, in global IDs.
template <class Msg>
MEDUSA_HD inline NeighborSet neighbor_row(const KernelCtx<Msg>& c, VertexId v) {
  if (c.neighbor_offsets != nullptr) {
    const EdgeIndex whole = c.neighbor_offsets[v];
    return NeighborSet(c.neighbor_ids + whole, static_cast<std::uint32_t>(c.neighbor_offsets[v + 1] - whole), nullptr);
  }
  const EdgeIndex begin = c.out_offsets[v];
  return NeighborSet(c.out_dst + begin, static_cast<std::uint32_t>(c.out_offsets[v + 1] - begin), c.global_id);
}

MEDUSA_HD inline const StepState& step_state() {
#if defined(__CUDA_ARCH__)
  return *s_step_state;
#else
  return *host_step_state;
#endif
}

}  // namespace detail

}  // namespace medusa

#include <medusa/by_id.h>  // (needs KernelCtx and flag_store)

namespace medusa {

// Vote to run another superstep. With any Continue() call in the program, a superstep in which no
// element votes ends the run (the overview paper's Medusa.Continue()).
MEDUSA_HD inline void Continue() { detail::vote_store(&detail::step_state().votes[kVoteContinue]); }
// Vote to stop after this superstep (the paper's `halt`).
MEDUSA_HD inline void Halt() { detail::vote_store(&detail::step_state().votes[kVoteHalt]); }
// The current superstep, counted from 0.
MEDUSA_HD inline std::uint32_t Superstep() { return detail::step_state().superstep; }

// Base of every generated vertex proxy.
template <class Msg>
struct VertexHandle {
  const KernelCtx<Msg>* medusa_ctx_;
  VertexId medusa_id_;

  MEDUSA_HD VertexId id() const { return detail::global_vertex(*medusa_ctx_, medusa_id_); }
  // Out-degree in the whole graph (in a partitioned run an ELIST sees only the partition's
  // out-edges: loop to el.size()).
  MEDUSA_HD std::uint32_t edge_count() const {
    if (medusa_ctx_->out_degree != nullptr) return medusa_ctx_->out_degree[medusa_id_];
    return static_cast<std::uint32_t>(medusa_ctx_->out_offsets[medusa_id_ + 1] -
                                      medusa_ctx_->out_offsets[medusa_id_]);
  }
  MEDUSA_HD std::uint32_t in_edge_count() const {
    if (medusa_ctx_->in_degree != nullptr) return medusa_ctx_->in_degree[medusa_id_];
    return static_cast<std::uint32_t>(medusa_ctx_->in_offsets[medusa_id_ + 1] -
                                      medusa_ctx_->in_offsets[medusa_id_]);
  }
  MEDUSA_HD Msg combined_msg() const { return medusa_ctx_->combined[medusa_id_]; }
  MEDUSA_HD NeighborSet neighbors() const { return detail::neighbor_row(*medusa_ctx_, medusa_id_); }
  MEDUSA_HD void SetActive() const {
    if (medusa_ctx_->next_priority != nullptr) detail::priority_min(&medusa_ctx_->next_priority[medusa_id_], 0);
    medusa_mark_active_();
  }
  // Active in a later superstep: the one that runs the lowest bucket (priority / delta) holding
  // it; a vertex given several priorities keeps the lowest (docs/design/priority-buckets.md).
  // Without bucket slots (next_priority null) the vertex is simply active next.
  MEDUSA_HD void SetActive(std::uint64_t priority) const {
    if (medusa_ctx_->next_priority != nullptr)
      detail::priority_min(&medusa_ctx_->next_priority[medusa_id_], priority);
    medusa_mark_active_();
  }
  MEDUSA_HD void medusa_mark_active_() const {
    if (medusa_ctx_->next_active_queue != nullptr)
      detail::queue_active(*medusa_ctx_, medusa_id_);
    else
      detail::flag_store(&medusa_ctx_->next_active_vertex[medusa_id_]);
  }
  // Sends msg to vertex `to`, folded by the program's combiner with its edge messages.
  MEDUSA_HD void sendMsgTo(VertexId to, const Msg& msg) const { detail::send_by_id(*medusa_ctx_, to, msg); }
};

// Base of every generated edge proxy. head -> tail, as in the paper (the head is the source).
template <class Msg>
struct EdgeHandle {
  const KernelCtx<Msg>* medusa_ctx_;
  EdgeIndex medusa_eid_;
  VertexId medusa_head_;
  VertexId medusa_tail_;
  // The edge's rid when the caller already read it (a column slot), else kUnknownRid.
  static constexpr EdgeIndex kUnknownRid = ~EdgeIndex{0};
  EdgeIndex medusa_rid_ = kUnknownRid;

  MEDUSA_HD VertexId head_id() const { return detail::global_vertex(*medusa_ctx_, medusa_head_); }
  MEDUSA_HD VertexId tail_id() const { return detail::global_vertex(*medusa_ctx_, medusa_tail_); }
  MEDUSA_HD NeighborSet head_neighbors() const { return detail::neighbor_row(*medusa_ctx_, medusa_head_); }
  MEDUSA_HD NeighborSet tail_neighbors() const { return detail::neighbor_row(*medusa_ctx_, medusa_tail_); }
  // Sends msg along this edge to its tail.
  MEDUSA_HD void sendMsg(const Msg& msg) const {
    const KernelCtx<Msg>& c = *medusa_ctx_;
    if (c.fold_slot != nullptr) {  // m == 1: a second send replaces the first, as in the buffer
      c.fold_slot->value = msg;
      c.fold_slot->sent = true;
      return;
    }
    EdgeIndex slot = (medusa_rid_ != kUnknownRid ? medusa_rid_ : c.rid[medusa_eid_]) * c.m;
    if (c.m > 1) {
      const std::uint32_t k = detail::atomic_inc(&c.send_counts[medusa_eid_]);
      if (k >= c.m) {
        detail::vote_store(&c.votes[kVoteTooManyMessages]);
        return;
      }
      slot += k;
    }
    c.messages[slot] = msg;
    if (c.received != nullptr) detail::flag_store(&c.received[medusa_tail_]);
  }
  MEDUSA_HD void SetActive() const { detail::flag_store(&medusa_ctx_->next_active_edge[medusa_eid_]); }
  // Sends msg to vertex `to`, folded by the program's combiner with its edge messages.
  MEDUSA_HD void sendMsgTo(VertexId to, const Msg& msg) const { detail::send_by_id(*medusa_ctx_, to, msg); }
};

// The out-edges of one vertex, for ELIST functors. P is the generated edge proxy; it provides
// message_type, arrays_type and `static P make(ctx, arrays, eid, head, tail)`.
template <class P>
class EdgeList {
 public:
  using Ctx = KernelCtx<typename P::message_type>;
  using Arrays = typename P::arrays_type;

  MEDUSA_HD EdgeList(const Ctx* ctx, const Arrays* arrays, VertexId head)
      : ctx_(ctx), arrays_(arrays), head_(head), begin_(ctx->out_offsets[head]),
        size_(static_cast<std::uint32_t>(ctx->out_offsets[head + 1] - ctx->out_offsets[head])) {}

  MEDUSA_HD std::uint32_t size() const { return size_; }
  MEDUSA_HD P operator[](std::uint32_t i) const {
    if (i < ctx_->column_width) {  // column-major part: consecutive lanes read consecutive slots
      const EdgeIndex slot = static_cast<EdgeIndex>(i) * ctx_->vertex_count + head_;
      P p = P::make(*ctx_, *arrays_, begin_ + i, head_, ctx_->column_dst[slot]);
      p.medusa_rid_ = ctx_->column_rid[slot];
      return p;
    }
    const EdgeIndex e = begin_ + i;
    return P::make(*ctx_, *arrays_, e, head_, ctx_->out_dst[e]);
  }

 private:
  const Ctx* ctx_;
  const Arrays* arrays_;
  VertexId head_;
  EdgeIndex begin_;
  std::uint32_t size_;
};

// The message slots of one vertex (in-degree * m of them), for MLIST functors.
template <class Msg>
class MessageList {
 public:
  MEDUSA_HD MessageList(const KernelCtx<Msg>* ctx, VertexId v)
      : first_(ctx->messages + ctx->in_offsets[v] * ctx->m),
        size_(static_cast<std::uint32_t>((ctx->in_offsets[v + 1] - ctx->in_offsets[v]) * ctx->m)) {}
  MEDUSA_HD std::uint32_t size() const { return size_; }
  MEDUSA_HD Msg& operator[](std::uint32_t i) const { return first_[i]; }

 private:
  Msg* first_;
  std::uint32_t size_;
};

}  // namespace medusa
