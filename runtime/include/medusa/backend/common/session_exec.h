// The entry points generated code calls to run an element functor over a domain: medusa::exec::run
// and its edge-parallel forms, forwarded to the Session of the program (partitioned_session.h).
#pragma once

#include <medusa/types.h>

namespace medusa {

// Each backend defines Session<Program> as a PartitionedSession over its engine and exchange.
template <class Program>
class Session;

namespace exec {
// Runs `element` (a generated element functor) over the elements of `domain` for API kind K, on
// every partition.
template <ApiKind K, class Program, class Element>
void run(Session<Program>& session, Domain domain, const Element& element) {
  session.template launch<K>(domain, element);
}
// Runs an edge-parallel ELIST element: element(c, va, ea, v, i) for every out-edge i of every
// vertex v of `domain` (medusa-cc proved the edge loop's iterations independent).
template <class Program, class Element>
void run_elist_edges(Session<Program>& session, Domain domain, const Element& element) {
  session.launch_elist_edges(domain, element);
}
}  // namespace exec

}  // namespace medusa
