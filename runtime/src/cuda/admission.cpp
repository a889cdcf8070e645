// CUDA sessions admitted through the GPU memory ledger (backend/cuda/admission.h).
#include <medusa/backend/cuda/admission.h>
#include <medusa/ledger/admission.h>

#include <algorithm>
#include <map>
#include <mutex>

namespace medusa::gpu {
namespace {

std::string label(const DeviceInfo& d) { return d.name + " (GPU " + std::to_string(d.ordinal) + ")"; }

std::uint64_t capacity_of(const DeviceInfo& d, const Sharing& s) {
  return s.capacityBytes != 0 ? std::min<std::uint64_t>(s.capacityBytes, d.total_bytes) : d.total_bytes;
}

// The process's share of one GPU, held while any session of the process lives there.
std::shared_ptr<ledger::Reservation> process_share(const ledger::Ledger& book, const ledger::Request& session) {
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<ledger::Reservation>> shares;
  const std::lock_guard<std::mutex> lock(mutex);  // (a second session waits here for the first's share)
  std::weak_ptr<ledger::Reservation>& slot = shares[book.directory() + "/" + session.device_key];
  std::shared_ptr<ledger::Reservation> share = slot.lock();
  if (share != nullptr) return share;
  ledger::Request r = session;
  r.bytes = std::min(kProcessShareBytes, session.capacity);
  r.owner = ledger::process_name() + ": CUDA context";
  share = std::make_shared<ledger::Reservation>(book.reserve(r));
  slot = share;
  return share;
}

}  // namespace

std::string ledger_key(const DeviceInfo& d) {
  bool known = false;
  for (unsigned char b : d.uuid) known |= b != 0;
  if (!known) return "gpu" + std::to_string(d.ordinal);
  static const char* const hex = "0123456789abcdef";
  std::string key = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) key += '-';
    key += hex[d.uuid[i] >> 4];
    key += hex[d.uuid[i] & 15];
  }
  return key;
}

std::uint64_t admissible_free_bytes(const DeviceInfo& device, const Config& conf) {
  const std::uint64_t free_bytes = free_device_bytes();
  const Sharing sharing = ledger::resolve_sharing(conf.sharing);
  if (sharing.admission == GpuAdmission::Off) return free_bytes;
  std::uint64_t held = 0;
  for (const ledger::Holding& h : ledger::Ledger(sharing.ledgerDir).holdings(ledger_key(device)))
    if (!h.waiting) held += h.bytes;
  const std::uint64_t capacity = capacity_of(device, sharing);
  const std::uint64_t room = capacity > held + kProcessShareBytes ? capacity - held - kProcessShareBytes : 0;
  return std::min(free_bytes, room);
}

Admission admit(const DeviceInfo& device, const MemoryPlan& plan, const GraphShape& shape, const Config& conf) {
  Admission a;
  const Sharing sharing = ledger::resolve_sharing(conf.sharing);
  if (sharing.admission == GpuAdmission::Off) return a;
  const ledger::Ledger book(sharing.ledgerDir);
  std::string owner = ledger::process_name() + ": Session of " + std::to_string(shape.vertices) + " vertices, " +
                      std::to_string(shape.edges) + " edges" + (shape.partitioned ? " (one partition)" : "");
  const ledger::Request r = ledger::make_request(sharing, ledger_key(device), label(device), plan.total(),
                                                 capacity_of(device, sharing), std::move(owner));
  a.process_share_ = process_share(book, r);
  a.session_ = book.reserve(r);
  a.description_ = human_bytes(plan.total()) + " of " + r.device_key + " (" + ledger::describe_sharing(sharing) + ")";
  return a;
}

}  // namespace medusa::gpu
