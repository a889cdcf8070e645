// A CUDA Session's admission on its GPU through the machine-wide memory ledger (ledger/), before it
// allocates: several programs on one GPU then queue instead of failing out of memory. Plain C++.
#pragma once

#include <medusa/backend/cuda/device.h>
#include <medusa/backend/cuda/memory_plan.h>
#include <medusa/config.h>
#include <medusa/ledger/memory_ledger.h>

#include <cstdint>
#include <memory>
#include <string>

namespace medusa::gpu {

// What a process's CUDA context takes on a GPU beyond its sessions' plans (module images, the
// driver's own buffers): reserved once per process and GPU while any of its sessions lives there.
inline constexpr std::uint64_t kProcessShareBytes = std::uint64_t{512} << 20;

// The reservations one session holds on its GPU while it lives (none with GpuAdmission::Off).
class Admission {
 public:
  Admission() = default;
  std::uint64_t bytes() const { return session_.bytes(); }
  // "3.2 GiB of GPU-8d2f... (ledger /dev/shm/medusa-ledger, wait up to 3600 s)" or "off ...".
  const std::string& describe() const { return description_; }

 private:
  friend Admission admit(const DeviceInfo&, const MemoryPlan&, const GraphShape&, const Config&);
  std::shared_ptr<ledger::Reservation> process_share_;  // shared by the process's sessions on the GPU
  ledger::Reservation session_;
  std::string description_ = "off (Config::sharing.admission)";
};

// The GPU's free bytes, no more than what the ledger could admit now: what a plan may give its
// optional parts (the column slots of an edge layout).
std::uint64_t admissible_free_bytes(const DeviceInfo& device, const Config& conf);

// Reserves plan.total() bytes of `device` (the current device) for a session of `shape`, after the
// process's share; waits or fails as conf.sharing says. Throws medusa::Error when not admitted.
Admission admit(const DeviceInfo& device, const MemoryPlan& plan, const GraphShape& shape, const Config& conf);

// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (as nvidia-smi -L prints it), or "gpu<ordinal>".
std::string ledger_key(const DeviceInfo& device);

}  // namespace medusa::gpu
