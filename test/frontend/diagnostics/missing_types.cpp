// A Medusa program needs a vertex type. expected-error@1 {{no vertex type: declare a struct deriving from medusa::VertexBase<Message>}}
#include <medusa/medusa.h>
struct NotAVertex {
  float rank;
};
