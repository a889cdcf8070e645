// Basic vocabulary shared by user programs, generated code and both backends.
#pragma once

#include <cstdint>
#include <limits>

#if defined(__CUDACC__)
#define MEDUSA_HD __host__ __device__
#define MEDUSA_DEVICE __device__
#else
#define MEDUSA_HD
#define MEDUSA_DEVICE
#endif

namespace medusa {

using VertexId = std::uint32_t;   // vertex IDs are 32-bit
using EdgeIndex = std::uint64_t;  // edge counts and offsets are 64-bit

inline constexpr VertexId kInvalidVertex = std::numeric_limits<VertexId>::max();

// The five EMV API kinds of the paper's Table 1. Unscoped so that `EMV<ELIST>` reads as in the paper.
enum ApiKind { ELIST, EDGE, MLIST, MESSAGE, VERTEX };

// Which elements an EMV call visits.
enum class Domain {
  All,       // every vertex (VERTEX/ELIST/MLIST), every edge (EDGE), every message slot (MESSAGE)
  Active,    // elements SetActive() in the previous superstep (or seeded on the host before Run)
  Received,  // vertices that received at least one message in this superstep (VERTEX/MLIST only)
};
inline constexpr Domain All = Domain::All;
inline constexpr Domain Active = Domain::Active;
inline constexpr Domain Received = Domain::Received;

}  // namespace medusa
