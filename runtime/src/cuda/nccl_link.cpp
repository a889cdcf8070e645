// NcclLink over NCCL, or (without MEDUSA_HAVE_NCCL) a stub that says NCCL is not built in.
#include <medusa/backend/cuda/nccl_link.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/error.h>

#include <string>

#if defined(MEDUSA_HAVE_NCCL)
#include <nccl.h>
#endif

namespace medusa::gpu {

#if defined(MEDUSA_HAVE_NCCL)

namespace {
void check(ncclResult_t rc, const char* what) {
  if (rc != ncclSuccess)
    MEDUSA_THROW(std::string("NCCL: ") + what + " failed: " + ncclGetErrorString(rc) +
                 " (NCCL_DEBUG=WARN says more; MEDUSA_NCCL=0 stages through host memory instead)");
}
ncclComm_t comm_of(void* c) { return static_cast<ncclComm_t>(c); }
}  // namespace

bool NcclLink::available() { return true; }

std::unique_ptr<NcclLink> NcclLink::connect(transport::Transport& t) {
  ncclUniqueId id{};
  if (t.rank() == 0) check(ncclGetUniqueId(&id), "ncclGetUniqueId");
  t.broadcast(&id, sizeof id);
  std::unique_ptr<NcclLink> link(new NcclLink);
  ncclComm_t comm = nullptr;
  check(ncclCommInitRank(&comm, static_cast<int>(t.ranks()), id, static_cast<int>(t.rank())), "ncclCommInitRank");
  link->comm_ = comm;
  link->connect_peers(t);
  return link;
}

// NCCL connects a pair of ranks on their first send (hundreds of milliseconds): one byte to and
// from every other rank makes those connections here, in set-up, not in the first timed refresh.
void NcclLink::connect_peers(transport::Transport& t) {
  const int ranks = static_cast<int>(t.ranks()), me = static_cast<int>(t.rank());
  if (ranks < 2) return;
  unsigned char* bytes = nullptr;  // [0]: sent; [1..ranks]: received
  MEDUSA_CUDA_CHECK(cudaMalloc(&bytes, static_cast<std::size_t>(ranks) + 1));
  MEDUSA_CUDA_CHECK(cudaMemset(bytes, 0, static_cast<std::size_t>(ranks) + 1));
  check(ncclGroupStart(), "ncclGroupStart");
  for (int peer = 0; peer < ranks; ++peer) {
    if (peer == me) continue;
    check(ncclSend(bytes, 1, ncclUint8, peer, comm_of(comm_), nullptr), "ncclSend (connecting)");
    check(ncclRecv(bytes + 1 + peer, 1, ncclUint8, peer, comm_of(comm_), nullptr), "ncclRecv (connecting)");
  }
  check(ncclGroupEnd(), "ncclGroupEnd");
  MEDUSA_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  MEDUSA_CUDA_CHECK(cudaFree(bytes));
}

NcclLink::~NcclLink() {
  if (comm_ != nullptr) ncclCommDestroy(comm_of(comm_));
}

void NcclLink::group_start() { check(ncclGroupStart(), "ncclGroupStart"); }
void NcclLink::group_end() { check(ncclGroupEnd(), "ncclGroupEnd"); }

void NcclLink::send(const void* data, std::size_t bytes, std::uint32_t peer, cudaStream_t stream) {
  check(ncclSend(data, bytes, ncclUint8, static_cast<int>(peer), comm_of(comm_), stream), "ncclSend");
}
void NcclLink::receive(void* data, std::size_t bytes, std::uint32_t peer, cudaStream_t stream) {
  check(ncclRecv(data, bytes, ncclUint8, static_cast<int>(peer), comm_of(comm_), stream), "ncclRecv");
}

#else

bool NcclLink::available() { return false; }
std::unique_ptr<NcclLink> NcclLink::connect(transport::Transport&) {
  MEDUSA_THROW("this Medusa was built without NCCL (configure with -DMEDUSA_ENABLE_NCCL=ON and NCCL_ROOT)");
}
NcclLink::~NcclLink() = default;
void NcclLink::connect_peers(transport::Transport&) {}
void NcclLink::group_start() {}
void NcclLink::group_end() {}
void NcclLink::send(const void*, std::size_t, std::uint32_t, cudaStream_t) {}
void NcclLink::receive(void*, std::size_t, std::uint32_t, cudaStream_t) {}

#endif

}  // namespace medusa::gpu
