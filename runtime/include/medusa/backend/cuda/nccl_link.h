// NCCL between the ranks of a distributed CUDA run: replica routes that cross ranks go device to
// device (ncclSend / ncclRecv on the copy stream) instead of through host memory. Built when CMake
// finds NCCL (MEDUSA_ENABLE_NCCL); this header does not include nccl.h.
#pragma once

#include <medusa/transport/transport.h>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace medusa::gpu {

class NcclLink {
 public:
  // Whether this Medusa was built with NCCL.
  static bool available();
  // Every rank calls it (collective): one communicator over the transport's ranks, each on its
  // current GPU, from a unique id rank 0 makes and broadcasts through the transport. Throws
  // medusa::Error when NCCL fails or is not built in.
  static std::unique_ptr<NcclLink> connect(transport::Transport& t);
  ~NcclLink();
  NcclLink(const NcclLink&) = delete;
  NcclLink& operator=(const NcclLink&) = delete;

  // Sends and receives between group_start and group_end are issued together; each pair of ranks
  // matches them in the order issued.
  void group_start();
  void group_end();
  void send(const void* data, std::size_t bytes, std::uint32_t peer, cudaStream_t stream);
  void receive(void* data, std::size_t bytes, std::uint32_t peer, cudaStream_t stream);

 private:
  NcclLink() = default;
  void connect_peers(transport::Transport& t);
  void* comm_ = nullptr;  // ncclComm_t
};

}  // namespace medusa::gpu
