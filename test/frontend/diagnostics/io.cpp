// I/O cannot run on the GPU.
#include <cstdio>
#include <iostream>
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
struct Print {
  void operator()(Vertex& v) const {
    std::printf("%f\n", v.rank); // expected-error {{'printf' performs I/O, which cannot run on the GPU}}
    std::cout << v.rank; // expected-error {{'std::cout' performs I/O}}
  }
};
void Iterate() { EMV<VERTEX>::Run(Print{}); }
