// What medusa-cc emits after each translated functor, as a macro for the hand-written test
// programs: the EmvLaunch specialization that hands the element functor to the backend executor.
// Use at global scope.
#pragma once

#define MEDUSA_TEST_EMV_LAUNCH(Functor, Kind, Element, Program)                             \
  template <>                                                                               \
  struct medusa::EmvLaunch<Functor> {                                                       \
    static constexpr medusa::ApiKind kind = medusa::Kind;                                   \
    static void run(medusa::SessionBase& s, const Functor& f, medusa::Domain d) {           \
      medusa::exec::run<medusa::Kind>(static_cast<medusa::Session<Program>&>(s), d,         \
                                      Element{f});                                          \
    }                                                                                       \
  };

// The CombinerLaunch specialization emitted for a user-defined combiner operator.
#define MEDUSA_TEST_COMBINER_LAUNCH(Op, Program)                                            \
  template <>                                                                               \
  struct medusa::CombinerLaunch<Op> {                                                       \
    static void run(medusa::SessionBase& s, const Op& op) {                                 \
      static_cast<medusa::Session<Program>&>(s).combine(op);                                \
    }                                                                                       \
  };

// The EmvLaunch specialization emitted for an edge-parallel ELIST functor (medusa-cc proved its
// edge loop's iterations independent): Element is called once per (vertex, edge index).
#define MEDUSA_TEST_EMV_EDGES_LAUNCH(Functor, Element, Program)                             \
  template <>                                                                               \
  struct medusa::EmvLaunch<Functor> {                                                       \
    static constexpr medusa::ApiKind kind = medusa::ELIST;                                  \
    static void run(medusa::SessionBase& s, const Functor& f, medusa::Domain d) {           \
      medusa::exec::run_elist_edges(static_cast<medusa::Session<Program>&>(s), d,           \
                                    Element{f});                                            \
    }                                                                                       \
  };
