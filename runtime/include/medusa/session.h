// The type-erased face of a running program. The paper's free functions (InitMessageBuffer,
// Combiner, EMV<K>::Run) reach the Session that Run() is executing through this interface.
#pragma once

#include <medusa/config.h>
#include <medusa/types.h>

#include <cstdint>
#include <typeinfo>

namespace medusa {

class SessionBase {
 public:
  virtual ~SessionBase() = default;
  // InitMessageBuffer(value): fills every message slot. `value` may be any arithmetic type when
  // the message type is arithmetic (converted), otherwise it must be the message type itself.
  virtual void init_message_buffer(const void* value, const std::type_info& type) = 0;
  // Combiner() with the built-in operator from Config::combinerOpType.
  virtual void combine_builtin() = 0;
  virtual std::uint32_t superstep() const = 0;
  virtual const Config& config() const = 0;
};

namespace detail {
// The session whose Run() is executing on this thread. Throws medusa::Error when none is.
SessionBase& current_session();

// Installs a session for the duration of a Run (RAII, nests).
class CurrentSessionScope {
 public:
  explicit CurrentSessionScope(SessionBase* s);
  ~CurrentSessionScope();
  CurrentSessionScope(const CurrentSessionScope&) = delete;
  CurrentSessionScope& operator=(const CurrentSessionScope&) = delete;

 private:
  SessionBase* previous_;
};
}  // namespace detail

// Generated code specializes these for every functor / combiner operator it translated:
//   template <> struct EmvLaunch<F> { static constexpr ApiKind kind = ...;
//                                     static void run(SessionBase&, const F&, Domain); };
//   template <> struct CombinerLaunch<Op> { static void run(SessionBase&, const Op&); };
template <class F>
struct EmvLaunch;
template <class Op>
struct CombinerLaunch;

}  // namespace medusa
