// InitMessageBuffer(x) reaches the session type-erased (const void*, type_info); this converts x
// to the program's message type.
#pragma once

#include <medusa/error.h>

#include <string>
#include <type_traits>
#include <typeinfo>

namespace medusa::common {

namespace detail {
template <class Msg, class From>
bool convert_if(const void* value, const std::type_info& type, Msg& out) {
  if (type != typeid(From)) return false;
  out = static_cast<Msg>(*static_cast<const From*>(value));
  return true;
}
}  // namespace detail

// Arithmetic message types accept any arithmetic value (static_cast, so InitMessageBuffer(0) works
// for a float message); other message types need a value of exactly that type.
template <class Msg>
Msg message_from_value(const void* value, const std::type_info& type) {
  if (type == typeid(Msg)) return *static_cast<const Msg*>(value);
  if constexpr (std::is_arithmetic_v<Msg>) {
    Msg out{};
    if (detail::convert_if<Msg, bool>(value, type, out) ||
        detail::convert_if<Msg, char>(value, type, out) ||
        detail::convert_if<Msg, signed char>(value, type, out) ||
        detail::convert_if<Msg, unsigned char>(value, type, out) ||
        detail::convert_if<Msg, short>(value, type, out) ||
        detail::convert_if<Msg, unsigned short>(value, type, out) ||
        detail::convert_if<Msg, int>(value, type, out) ||
        detail::convert_if<Msg, unsigned>(value, type, out) ||
        detail::convert_if<Msg, long>(value, type, out) ||
        detail::convert_if<Msg, unsigned long>(value, type, out) ||
        detail::convert_if<Msg, long long>(value, type, out) ||
        detail::convert_if<Msg, unsigned long long>(value, type, out) ||
        detail::convert_if<Msg, float>(value, type, out) ||
        detail::convert_if<Msg, double>(value, type, out) ||
        detail::convert_if<Msg, long double>(value, type, out)) {
      return out;
    }
    MEDUSA_THROW(std::string("InitMessageBuffer: cannot convert a value of type ") + type.name() +
                 " to the arithmetic message type " + typeid(Msg).name() +
                 "; pass a number or a value of the message type");
  } else {
    MEDUSA_THROW(std::string("InitMessageBuffer: the message type is ") + typeid(Msg).name() +
                 " but the value has type " + type.name() +
                 "; pass a value of the message type itself");
  }
}

}  // namespace medusa::common
