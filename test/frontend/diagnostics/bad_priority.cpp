// SetActive(priority) takes an unsigned integer: its bucket is priority / delta. A fraction would
// be truncated and a negative value would wrap to the last bucket, so both are rejected as written.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float distance;
  int level;
  unsigned int hops;
};
struct Edge : EdgeBase<Vertex> {
  float length;
};
enum { kFar = 7 };
struct Improve {
  void operator()(Vertex& v) const {
    float best = v.combined_msg();
    v.SetActive(best); // expected-error {{the priority 'best' given to SetActive has type 'float'; a priority is an unsigned integer (its bucket is priority / delta, lowest first): scale or round it into one, e.g. a distance in whole units}}
    v.SetActive(v.distance * 2.0); // expected-error {{the priority 'v.distance * 2.0' given to SetActive has type 'double'}}
    v.SetActive(true); // expected-error {{the priority 'true' given to SetActive has type 'bool'}}
    v.SetActive(-1); // expected-error {{the priority '-1' given to SetActive is -1; a priority is an unsigned integer (its bucket is priority / delta, lowest first): give 0 or more}}
    v.SetActive(v.level); // expected-error {{the priority 'v.level' given to SetActive has signed type 'int' and might be negative, which would wrap to the last bucket; a priority is an unsigned integer: cast a value you know is not negative ('static_cast<unsigned>(...)'), or compute it in an unsigned type}}
    // Accepted: unsigned values, non-negative constants, a cast the user vouches for.
    v.SetActive(v.hops);
    v.SetActive(3);
    v.SetActive(kFar);
    v.SetActive(static_cast<unsigned>(v.level));
    v.SetActive(v.hops + 1u);
    v.SetActive();
  }
};
void Step() { EMV<VERTEX>::Run(Improve{}); }
int main() {}
