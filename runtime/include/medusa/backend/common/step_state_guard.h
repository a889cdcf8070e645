// Restores this thread's medusa::detail::host_step_state (the StepState Continue()/Halt()/Superstep()
// read on the host) when a Run ends, also by exception, so nested or consecutive sessions do not see
// stale vote pointers.
#pragma once

#include <medusa/device_api.h>

namespace medusa::common {

class StepStateGuard {
 public:
  StepStateGuard() : saved_(medusa::detail::host_step_state) {}
  ~StepStateGuard() { medusa::detail::host_step_state = saved_; }
  StepStateGuard(const StepStateGuard&) = delete;
  StepStateGuard& operator=(const StepStateGuard&) = delete;

 private:
  const medusa::detail::StepState* saved_;
};

}  // namespace medusa::common
