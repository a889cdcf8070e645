// The session Run() is executing on this thread, which the paper's free functions reach.
#include <medusa/error.h>
#include <medusa/session.h>

namespace medusa::detail {

namespace {
thread_local SessionBase* t_current_session = nullptr;
}  // namespace

SessionBase& current_session() {
  if (t_current_session == nullptr) {
    MEDUSA_THROW(
        "EMV<...>::Run / InitMessageBuffer / Combiner called outside Device::Run; call them from "
        "the iteration function passed to device.Run(iteration)");
  }
  return *t_current_session;
}

CurrentSessionScope::CurrentSessionScope(SessionBase* s) : previous_(t_current_session) {
  t_current_session = s;
}

CurrentSessionScope::~CurrentSessionScope() { t_current_session = previous_; }

}  // namespace medusa::detail
