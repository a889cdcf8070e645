// Restores detail::host_step_state (what Continue()/Halt()/Superstep() read on the host) when a
// Run ends, also by exception, so nested or consecutive sessions do not see stale vote pointers.
#pragma once

#include <medusa/device_api.h>

namespace medusa::host {

class StepStateGuard {
 public:
  StepStateGuard() : saved_(detail::host_step_state) {}
  ~StepStateGuard() { detail::host_step_state = saved_; }
  StepStateGuard(const StepStateGuard&) = delete;
  StepStateGuard& operator=(const StepStateGuard&) = delete;

 private:
  detail::StepState saved_;
};

}  // namespace medusa::host
