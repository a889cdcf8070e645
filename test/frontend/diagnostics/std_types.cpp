// std containers and strings cannot be used on the GPU; <cmath>, <limits>, <utility> can.
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
struct UseStd {
  void operator()(Vertex& v) const {
    std::vector<float> history; // expected-error {{variable 'history' of type 'std::vector<float>' cannot be used on the GPU}}
    std::string name; // expected-error {{variable 'name' of type 'std::basic_string<char>' cannot be used on the GPU}}
    std::pair<float, int> ok{std::sqrt(v.rank), 1};
    v.rank = std::min(ok.first, std::numeric_limits<float>::max());
  }
};
void Iterate() { EMV<VERTEX>::Run(UseStd{}); }
