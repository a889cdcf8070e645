// Global aggregates: functors use them only as name.add(x) / name.value(), unqualified; helpers,
// combiners and host code may not add to them; they live at namespace scope.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<int> {
  int value;
};
struct Edge : EdgeBase<Vertex> {};
namespace stats {
Aggregate<int, MEDUSA_SUM> total;
}
Aggregate<int, MEDUSA_MAX> peak;
using namespace stats;

int scaled(int x) {
  return x * peak.value(); // expected-error {{aggregate 'peak' is used in 'scaled', which device code calls; use it directly in a functor's operator() (pass the value in, or return what to add)}}
}
void bump(const Aggregate<int, MEDUSA_SUM>& a) {}

struct Misuse {
  void operator()(Vertex& v) const {
    total.add(v.value);                      // fine
    v.value = scaled(v.value) + peak.value(); // expected-note {{'scaled' is called from device code here}}
    stats::total.add(1); // expected-error {{write the aggregate as plain 'total' inside a functor (not 'stats::total'): medusa-cc binds that name to the aggregate's device slot}}
    const auto& alias = peak; // expected-error {{aggregate 'peak' can only be used as 'peak.add(x)' or 'peak.value()' in a functor: it is folded once per superstep, and functors contribute to it only through add()}}
    bump(total); // expected-error {{aggregate 'total' can only be used as 'total.add(x)' or 'total.value()' in a functor}}
    (void)alias;
  }
};

void Iterate() {
  peak.add(3); // expected-error {{'peak.add()' in host code: an aggregate folds what functors add during a superstep; call add() in a functor, and read the result with 'peak.value()'}}
  EMV<VERTEX>::Run(Misuse{});
}

int main() {
  static Aggregate<int, MEDUSA_MIN> local; // expected-error {{aggregate 'local' must be declared at namespace scope (not inside a function, a class or an anonymous namespace)}}
  return total.value() + local.value();
}
