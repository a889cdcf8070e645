// Config::sharing resolved against the environment, and the ledger request a backend makes from it.
#pragma once

#include <medusa/config.h>
#include <medusa/ledger/memory_ledger.h>

#include <cstdint>
#include <string>

namespace medusa::ledger {

// `sharing` with MEDUSA_GPU_ADMISSION (wait|fail|off), MEDUSA_GPU_WAIT_SECONDS (seconds > 0),
// MEDUSA_GPU_CAPACITY (bytes with an optional K, M, G or T) and MEDUSA_LEDGER_DIR applied; throws
// medusa::Error on a value it does not know, a bad timeout or capacity.
Sharing resolve_sharing(Sharing sharing);

// "wait up to 3600 s", "fail at once" or "off", for --verbose reports and messages.
std::string describe_sharing(const Sharing& sharing);

// The request of a resolved `sharing` (admission not Off) for `bytes` of a GPU.
Request make_request(const Sharing& sharing, std::string device_key, std::string device_label,
                     std::uint64_t bytes, std::uint64_t capacity, std::string owner);

// "<program>" of this process (its short name), for the entries others see.
std::string process_name();

}  // namespace medusa::ledger
