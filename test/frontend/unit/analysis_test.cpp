// Stages 1-3 on small programs: kinds, field reads/writes, built-ins, domains, rejection.
#include "medusa-cc/GpuSafetyChecker.h"
#include "medusa-cc/ProgramEmitter.h"
#include "medusa-cc/TemplateEngine.h"
#include "medusa-cc/Translator.h"

#include <clang/Frontend/ASTUnit.h>
#include <clang/Frontend/TextDiagnosticBuffer.h>
#include <clang/Tooling/Tooling.h>

#include <catch2/catch.hpp>

#include <optional>

using namespace medusa::cc;

namespace {

const char* const kPrelude = R"(
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> { float a; float b; float c; int d; float h[2]; };
struct Edge : EdgeBase<Vertex> { float w; };
)";

struct Analysis {
  bool accepted = false;
  unsigned errors = 0;
  ProgramModel model;
};

Analysis analyze(const std::string& body) {
  std::vector<std::string> args{"-std=c++17", "-I" MEDUSA_TEST_INCLUDE_DIR,
                                "-resource-dir=" MEDUSA_TEST_RESOURCE_DIR};
  clang::TextDiagnosticBuffer diagnostics;  // declared first: outlives the ASTUnit
  std::unique_ptr<clang::ASTUnit> unit = clang::tooling::buildASTFromCodeWithArgs(
      kPrelude + body, args, "input.cpp", "medusa-cc-test",
      std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), {}, &diagnostics);
  REQUIRE(unit != nullptr);
  Analysis result;
  REQUIRE_FALSE(unit->getDiagnostics().hasErrorOccurred());
  result.accepted = ProgramAnalysis::run(unit->getASTContext(), result.model);
  result.errors = static_cast<unsigned>(diagnostics.err_end() - diagnostics.err_begin());
  return result;
}

}  // namespace

TEST_CASE("API kinds come from operator() parameters in either order", "[frontend]") {
  Analysis a = analyze(R"(
struct E1 { void operator()(EdgeList<Edge>& el, Vertex& v) const {} };
struct E2 { void operator()(Edge e) const {} };
struct M1 { void operator()(const Vertex& v, MessageList<float> ml) const {} };
struct M2 { void operator()(float& m) const {} };
struct V1 { void operator()(Vertex& v) const {} };
void It() {
  EMV<ELIST>::Run(E1{}); EMV<EDGE>::Run(E2{}); EMV<MLIST>::Run(M1{});
  EMV<MESSAGE>::Run(M2{}); EMV<VERTEX>::Run(V1{}, Domain::Active);
}
)");
  REQUIRE(a.accepted);
  REQUIRE(a.model.functors.size() == 5);
  CHECK(a.model.functor("E1")->kind == ApiKind::Elist);
  CHECK(a.model.functor("E1")->params[0].role == ParamRole::EdgeList);
  CHECK(a.model.functor("E1")->params[1].name == "v");
  CHECK(a.model.functor("E2")->kind == ApiKind::Edge);
  CHECK(a.model.functor("M1")->kind == ApiKind::Mlist);
  CHECK(a.model.functor("M2")->kind == ApiKind::Message);
  CHECK(a.model.functor("V1")->kind == ApiKind::Vertex);
  CHECK(a.model.functor("V1")->domains == std::vector<DomainUse>{DomainUse::Active});
  CHECK(a.model.uses().vertex_frontier);
  CHECK(a.model.iteration_functions == std::vector<std::string>{"It"});
}

TEST_CASE("field reads and writes are told apart", "[frontend]") {
  Analysis a = analyze(R"(
float look(const float& x) { return x; }
struct F {
  void operator()(Vertex& v) const {
    float x = v.a;        // read
    v.b = x;              // write only
    v.c += 1;             // read + write
    look(v.a);            // const reference: read
    float& alias = v.d == 0 ? x : x;
    (void)alias;
  }
};
void It() { EMV<VERTEX>::Run(F{}); }
)");
  REQUIRE(a.accepted);
  const FunctorInfo& f = *a.model.functor("F");
  CHECK(f.vertex_fields.at("a").read);
  CHECK_FALSE(f.vertex_fields.at("a").written);
  CHECK_FALSE(f.vertex_fields.at("b").read);
  CHECK(f.vertex_fields.at("b").written);
  CHECK(f.vertex_fields.at("b").written_unconditionally);
  CHECK(f.vertex_fields.at("c").read);
  CHECK(f.vertex_fields.at("c").written);
  CHECK(f.vertex_fields.at("d").read);
  CHECK_FALSE(f.vertex_fields.at("d").written);
}

TEST_CASE("writes through references, pointers and ++ count as writes", "[frontend]") {
  Analysis a = analyze(R"(
void set(float* p) { *p = 1; }
void inc(int& x) { ++x; }
struct F {
  void operator()(Vertex& v) const {
    if (v.d > 0) v.a = 1;  // conditional write
    set(v.h);              // an array field decays to a pointer (&v.b is rejected)
    inc(v.d);
    float& r = v.c;
    r = 2;
  }
};
void It() { EMV<VERTEX>::Run(F{}); }
)");
  REQUIRE(a.accepted);
  const FunctorInfo& f = *a.model.functor("F");
  CHECK(f.vertex_fields.at("a").written);
  CHECK_FALSE(f.vertex_fields.at("a").written_unconditionally);
  CHECK(f.vertex_fields.at("h").written);
  CHECK(f.vertex_fields.at("c").written);
  CHECK(f.vertex_fields.at("d").written);
  CHECK(a.model.helpers.size() == 2);
}

TEST_CASE("a conditional operator reads its branches unless it is assigned", "[frontend]") {
  Analysis a = analyze(R"(
struct V {
  bool pick;
  void operator()(Vertex& v) const {
    float x = pick ? v.a : v.b;              // read both
    float y = v.c ?: (pick ? v.a : v.h[0]);  // GNU binary form, nested: read
    (pick ? v.d : v.d) = int(x + y);         // a conditional lvalue assigned: written
  }
};
void It() { EMV<VERTEX>::Run(V{}); }
)");
  REQUIRE(a.accepted);
  const FunctorInfo& v = *a.model.functor("V");
  for (const char* field : {"a", "b", "c", "h"}) {
    INFO(field);
    CHECK(v.vertex_fields.at(field).read);
    CHECK_FALSE(v.vertex_fields.at(field).written);
  }
  CHECK(v.vertex_fields.at("d").written);
  CHECK_FALSE(v.vertex_fields.at("d").read);
  CHECK_FALSE(v.vertex_fields.at("d").written_unconditionally);  // a branch may not run
}

TEST_CASE("an EDGE functor may read head fields through a conditional", "[frontend]") {
  Analysis a = analyze(R"(
struct E {
  bool of_hub;
  void operator()(Edge& e) const {
    const float x = of_hub ? e.head().a : e.head().b;
    e.sendMsg(x);
  }
};
void It() { EMV<EDGE>::Run(E{}); }
)");
  REQUIRE(a.accepted);
  const FunctorInfo& e = *a.model.functor("E");
  CHECK(e.head_fields.at("a").read);
  CHECK_FALSE(e.head_fields.at("a").written);
  CHECK(e.head_fields.at("b").read);
  CHECK_FALSE(e.head_fields.at("b").written);
}

TEST_CASE("EDGE functors read head fields and use built-ins", "[frontend]") {
  Analysis a = analyze(R"(
struct Send {
  void operator()(Edge& e) const {
    const Vertex& h = e.head();
    if (h.a > e.head().b) { e.sendMsg(e.w); e.SetActive(); }
    if (Superstep() > 2) Halt(); else Continue();
  }
};
void It() { EMV<EDGE>::Run(Send{}, Domain::Active); }
)");
  REQUIRE(a.accepted);
  const FunctorInfo& f = *a.model.functor("Send");
  CHECK(f.head_fields.count("a") == 1);
  CHECK(f.head_fields.count("b") == 1);
  CHECK(f.vertex_fields.empty());
  CHECK(f.edge_fields.at("w").read);
  CHECK(f.uses_head);
  CHECK(f.sends_messages);
  CHECK(f.sets_edge_active);
  CHECK(f.continue_vote);
  CHECK(f.halt_vote);
  CHECK(f.uses_superstep);
  const ProgramUsesInfo uses = a.model.uses();
  CHECK(uses.edge_frontier);
  CHECK_FALSE(uses.vertex_frontier);
  CHECK(uses.continue_vote);
  CHECK(uses.messages);
}

namespace {
// The vertex_fields FieldSpec of `field` in the emitted ProgramTraits ("" when it does not travel).
std::string vertexFieldSpec(const Analysis& a, const std::string& field) {
  TemplateEngine templates;
  ProgramEmitter emitter(a.model, "", templates);
  const std::string traits = emitter.programTraits();
  const std::string key = "{\"" + field + "\", offsetof(::Vertex, " + field + ")";
  const size_t begin = traits.find(key);
  if (begin == std::string::npos) return "";
  return traits.substr(begin, traits.find('}', begin) + 1 - begin);
}
}  // namespace

TEST_CASE("kEdgeRead marks exactly the vertex fields ELIST/EDGE functors read", "[frontend]") {
  Analysis a = analyze(R"(
struct Update {  // VERTEX: reads a, writes d
  void operator()(Vertex& v) const { v.d = static_cast<int>(v.a + v.combined_msg()); }
};
struct Collect {  // MLIST: reads b
  void operator()(Vertex& v, MessageList<float> ml) const { v.d = static_cast<int>(v.b); }
};
struct Spread {  // ELIST: reads its vertex's c, writes b
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned i = 0; i < el.size(); ++i) el[i].sendMsg(v.c + el[i].w);
    v.b = 1;
  }
};
struct Relax {  // EDGE: reads the head's h, writes the edge's w
  void operator()(Edge& e) const { e.w = e.head().h[1]; }
};
void It() {
  EMV<ELIST>::Run(Spread{}); EMV<EDGE>::Run(Relax{}); EMV<MLIST>::Run(Collect{});
  Combiner(); EMV<VERTEX>::Run(Update{});
}
)");
  REQUIRE(a.accepted);
  // Read on the vertex side only (VERTEX, MLIST), or written by an ELIST functor: no kEdgeRead.
  CHECK(vertexFieldSpec(a, "a") == "{\"a\", offsetof(::Vertex, a), sizeof(float), medusa::kUpload}");
  CHECK(vertexFieldSpec(a, "b") ==
        "{\"b\", offsetof(::Vertex, b), sizeof(float), medusa::kUpload | medusa::kDownload}");
  CHECK(vertexFieldSpec(a, "d") == "{\"d\", offsetof(::Vertex, d), sizeof(int), medusa::kDownload}");
  // v.c in ELIST; h through e.head() in EDGE.
  CHECK(vertexFieldSpec(a, "c") ==
        "{\"c\", offsetof(::Vertex, c), sizeof(float), medusa::kUpload | medusa::kEdgeRead}");
  CHECK(vertexFieldSpec(a, "h") ==
        "{\"h\", offsetof(::Vertex, h), sizeof(float[2]), medusa::kUpload | medusa::kEdgeRead}");
  // Edge fields never get it.
  TemplateEngine templates;
  const std::string traits = ProgramEmitter(a.model, "", templates).programTraits();
  CHECK(traits.find("{\"w\", offsetof(::Edge, w), sizeof(float), medusa::kUpload | "
                    "medusa::kDownload}") != std::string::npos);
  // combined_msg() only in a VERTEX functor.
  CHECK(a.model.functor("Update")->reads_combined);
  CHECK_FALSE(a.model.uses().edge_reads_combined);
  CHECK(traits.find("medusa::kUsesEdgeReadsCombined") == std::string::npos);
}

TEST_CASE("combined_msg() read by an ELIST or EDGE functor sets edge_reads_combined", "[frontend]") {
  Analysis elist = analyze(R"(
struct Spread {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned i = 0; i < el.size(); ++i) el[i].sendMsg(v.combined_msg());
  }
};
void It() { EMV<ELIST>::Run(Spread{}); }
)");
  REQUIRE(elist.accepted);
  CHECK(elist.model.functor("Spread")->reads_combined);
  CHECK(elist.model.uses().edge_reads_combined);
  TemplateEngine templates;
  CHECK(ProgramEmitter(elist.model, "", templates).programTraits().find(
            "medusa::kUsesEdgeReadsCombined") != std::string::npos);

  Analysis edge = analyze(R"(
struct Relax {
  void operator()(Edge& e) const { e.sendMsg(e.head().combined_msg() + e.w); }
};
void It() { EMV<EDGE>::Run(Relax{}); }
)");
  REQUIRE(edge.accepted);
  CHECK(edge.model.uses().edge_reads_combined);
}

// SlotLifetimeAnalysis: only iteration functions in which every Combiner's slots are rewritten by
// InitMessageBuffer before anything touches them again.
bool consumes_slots(const std::string& iteration) {
  const Analysis a = analyze(R"(
struct Send {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned i = 0; i < el.size(); ++i) el[i].sendMsg(v.a + el[i].w);
  }
};
struct Relax { void operator()(Edge& e) const { e.sendMsg(e.head().a + e.w); } };
struct Keep { void operator()(Vertex& v) const { v.b = v.combined_msg(); } };
struct Read { void operator()(Vertex& v, MessageList<float>& ml) const { v.c = ml[0]; } };
)" + iteration);
  REQUIRE(a.accepted);
  const bool consumes = a.model.uses().combiner_consumes_slots;
  TemplateEngine templates;
  CHECK((ProgramEmitter(a.model, "", templates).programTraits().find(
             "medusa::kUsesCombinerConsumesSlots") != std::string::npos) == consumes);
  return consumes;
}

TEST_CASE("a Combiner consumes its slots only when InitMessageBuffer comes next", "[frontend]") {
  // SSSP-Q's shape, several rounds per superstep (matching's), and no Combiner at all.
  CHECK(consumes_slots(R"(void It() {
  InitMessageBuffer(1e9f); EMV<ELIST>::Run(Send{}, Active); Combiner(); EMV<VERTEX>::Run(Keep{}, Received);
})"));
  CHECK(consumes_slots(R"(void It() {
  InitMessageBuffer(0.0f); EMV<ELIST>::Run(Send{}); Combiner(); EMV<VERTEX>::Run(Keep{});
  InitMessageBuffer(0.0f); EMV<EDGE>::Run(Relax{}); Combiner(); EMV<VERTEX>::Run(Keep{});
})"));
  CHECK(consumes_slots(R"(void It() { EMV<VERTEX>::Run(Keep{}); })"));
  // A second Combiner, a send after the Combiner, or the next superstep's Combiner read them.
  CHECK_FALSE(consumes_slots(R"(void It() {
  InitMessageBuffer(0.0f); EMV<ELIST>::Run(Send{}); Combiner(); Combiner();
})"));
  CHECK_FALSE(consumes_slots(R"(void It() {
  InitMessageBuffer(0.0f); EMV<ELIST>::Run(Send{}); Combiner(); EMV<EDGE>::Run(Relax{}); Combiner();
})"));
  CHECK_FALSE(consumes_slots(R"(void It() {
  if (Superstep() == 0) InitMessageBuffer(0.0f);
  EMV<ELIST>::Run(Send{}); Combiner();
})"));
  CHECK_FALSE(consumes_slots(R"(void It() { EMV<ELIST>::Run(Send{}); Combiner(); })"));
  // Calls under control flow or in a lambda are not followed; MLIST reads slots.
  CHECK_FALSE(consumes_slots(R"(void It() {
  InitMessageBuffer(0.0f); EMV<ELIST>::Run(Send{}); for (int k = 0; k < 2; ++k) Combiner();
})"));
  CHECK_FALSE(consumes_slots(R"(void It() {
  InitMessageBuffer(0.0f); EMV<ELIST>::Run(Send{}); auto combine = [] { Combiner(); }; combine();
})"));
  CHECK_FALSE(consumes_slots(R"(void It() {
  InitMessageBuffer(0.0f); EMV<ELIST>::Run(Send{}); Combiner(); EMV<MLIST>::Run(Read{});
})"));
  CHECK_FALSE(consumes_slots(R"(template <class Op> void It() {
  InitMessageBuffer(0.0f); EMV<ELIST>::Run(Send{}); Combiner(); Combiner(Op{});
}
struct Min { float operator()(const float& a, const float& b) const { return a < b ? a : b; } };
void Step() { It<Min>(); })"));
}

// IterationReplayAnalysis: the functions generated code registers for replay. `program` defines
// `It` (and whatever it needs) after these functors.
std::vector<std::string> replayable(const std::string& program) {
  const Analysis a = analyze(R"(
#include <climits>
struct Send {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned i = 0; i < el.size(); ++i) el[i].sendMsg(v.a + el[i].w);
  }
};
struct Keep { void operator()(Vertex& v) const { v.b = v.combined_msg(); } };
struct Scale { float f; float g = 2.0f; void operator()(Vertex& v) const { v.c = f * g; } };
struct Min { float operator()(const float& a, const float& b) const { return a < b ? a : b; } };
)" + program);
  REQUIRE(a.accepted);
  return a.model.replayable_iterations;
}
bool replays(const std::string& program) {
  const std::vector<std::string> names = replayable(program);
  CHECK(names.size() <= 1);
  return names == std::vector<std::string>{"::It"};
}

TEST_CASE("straight lines of Medusa operations with constant arguments are replayable",
          "[frontend]") {
  CHECK(replays(R"(void It() {
  InitMessageBuffer(UINT_MAX); EMV<ELIST>::Run(Send{}, Active); Combiner();
  EMV<VERTEX>::Run(Keep{}, Received);
})"));
  // Functor temporaries built from constants; constexpr variables; arithmetic on constants.
  CHECK(replays(R"(constexpr float kInit = 1e9f;
constexpr Domain kWhere = Domain::Active;
void It() {
  InitMessageBuffer(kInit * 2 + 1); EMV<VERTEX>::Run(Scale{2.0f}, kWhere); EMV<VERTEX>::Run(Scale());
  Combiner(Min{}); ;
})"));
  CHECK(replays(R"(void It() { InitMessageBuffer(0.0f); EMV<ELIST>::Run(Send{}); Combiner(); Continue(); })"));
  CHECK(replays(R"(void It() { EMV<VERTEX>::Run(Keep{}); Halt(); })"));
  // Named namespaces are spelled from global scope; several functions keep source order.
  CHECK(replayable(R"(namespace app { inline namespace v1 { void Step() { Combiner(); } } }
void It() { EMV<VERTEX>::Run(Keep{}); }
void ns_free();
namespace app { void Later() { InitMessageBuffer(0); } })") ==
        std::vector<std::string>{"::app::v1::Step", "::It", "::app::Later"});
}

TEST_CASE("anything that could differ between calls makes a function not replayable",
          "[frontend]") {
  // Control flow, other calls, declarations.
  CHECK_FALSE(replays(R"(void It() {
  InitMessageBuffer(0.0f); if (Superstep() > 3) Halt(); EMV<ELIST>::Run(Send{}); Combiner();
})"));
  CHECK_FALSE(replays(R"(void It() { for (int k = 0; k < 2; ++k) EMV<VERTEX>::Run(Keep{}); })"));
  CHECK_FALSE(replays(R"(void log(); void It() { EMV<VERTEX>::Run(Keep{}); log(); })"));
  CHECK_FALSE(replays(R"(void It() { float init = 0.0f; InitMessageBuffer(init); Combiner(); })"));
  // Arguments that read variables or call non-constexpr functions.
  CHECK_FALSE(replays(R"(float g_init = 0.0f;
void It() { InitMessageBuffer(g_init); EMV<ELIST>::Run(Send{}); Combiner(); })"));
  CHECK_FALSE(replays(R"(float g_factor = 2.0f;
void It() { EMV<VERTEX>::Run(Scale{g_factor}); })"));
  CHECK_FALSE(replays(R"(Domain g_where = Domain::All;
void It() { EMV<VERTEX>::Run(Keep{}, g_where); })"));
  CHECK_FALSE(replays(R"(float pick() { return 1.0f; }
void It() { InitMessageBuffer(pick()); EMV<VERTEX>::Run(Keep{}); })"));
  CHECK_FALSE(replays(R"(Scale g_scale{1.0f};
void It() { EMV<VERTEX>::Run(g_scale); })"));
  // Functors whose construction may compute anything.
  CHECK_FALSE(replays(R"(struct Made {
  Made(float x) : f(x) {}
  float f;
  void operator()(Vertex& v) const { v.a = f; }
};
void It() { EMV<VERTEX>::Run(Made{1.0f}); })"));
  CHECK_FALSE(replays(R"(float g_factor = 2.0f;
struct Late { float f = g_factor; void operator()(Vertex& v) const { v.a = f; } };
void It() { EMV<VERTEX>::Run(Late{}); })"));
  CHECK_FALSE(replays(R"(float g_factor = 2.0f;
struct Base { float f = g_factor; };
struct Derived : Base { void operator()(Vertex& v) const { v.a = f; } };
void It() { EMV<VERTEX>::Run(Derived{}); })"));
  CHECK_FALSE(replays(R"(void It() { [] { EMV<VERTEX>::Run(Keep{}); }(); })"));
  // Not a plain nullary function of namespace scope.
  CHECK_FALSE(replays(R"(void It(float init) { InitMessageBuffer(init); EMV<VERTEX>::Run(Keep{}); })"));
  CHECK_FALSE(replays(R"(void It(int) { EMV<VERTEX>::Run(Keep{}); })"));
  CHECK(replayable(R"(struct Program { static void It() { EMV<VERTEX>::Run(Keep{}); } };
void Call() { Program::It(); })").empty());
  CHECK(replayable(R"(template <class F> void It() { EMV<VERTEX>::Run(F{}); }
void Call() { It<Keep>(); })").empty());
  CHECK(replayable(R"(namespace { void It() { EMV<VERTEX>::Run(Keep{}); } }
void Call() { It(); })").empty());
  CHECK(replayable(R"(auto It = [] { EMV<VERTEX>::Run(Keep{}); };)").empty());
  // Only votes: not an iteration function.
  CHECK(replayable(R"(void Other() { EMV<VERTEX>::Run(Keep{}); }
void It() { Continue(); Halt(); })") == std::vector<std::string>{"::Other"});
}

TEST_CASE("combiner operators and combinerOpType are recorded", "[frontend]") {
  Analysis a = analyze(R"(
struct Max { float operator()(const float& x, const float& y) const { return x > y ? x : y; } };
struct V { void operator()(Vertex& v) const { v.a = v.combined_msg(); } };
void It() { Combiner(Max{}); Combiner(); EMV<VERTEX>::Run(V{}); }
int main() { Config conf; conf.combinerOpType = MEDUSA_MAX; }
)");
  REQUIRE(a.accepted);
  REQUIRE(a.model.combiners.size() == 1);
  CHECK(a.model.combiners[0].name == "Max");
  CHECK(a.model.uses_builtin_combiner);
  CHECK(a.model.combiner_op_types == std::vector<std::string>{"MEDUSA_MAX"});
}

TEST_CASE("unsafe programs are rejected with errors", "[frontend]") {
  Analysis a = analyze(R"(
int counter;
struct F { void operator()(Vertex& v) const { counter++; throw 1; } };
void It() { EMV<VERTEX>::Run(F{}); }
)");
  CHECK_FALSE(a.accepted);
  CHECK(a.errors == 2);
}

TEST_CASE("writing one element of an array field is a partial write", "[frontend]") {
  Analysis a = analyze(R"(
struct F { void operator()(Vertex& v) const { v.h[0] = v.h[1]; v.a = 1; } };
void It() { EMV<VERTEX>::Run(F{}); }
)");
  REQUIRE(a.accepted);
  const FunctorInfo& f = *a.model.functor("F");
  CHECK(f.vertex_fields.at("h").read);
  CHECK(f.vertex_fields.at("h").written);
  CHECK_FALSE(f.vertex_fields.at("h").written_unconditionally);
  CHECK(f.vertex_fields.at("a").written_unconditionally);
  REQUIRE(a.model.vertex.field("h") != nullptr);
  CHECK(a.model.vertex.field("h")->array_suffix == "[2]");
  CHECK(a.model.vertex.field("h")->declarator("&", true) == "const float (&h)[2]");
  CHECK(a.model.vertex.field("h")->pointerType() == "float (*)[2]");
}

TEST_CASE("device allow-lists", "[frontend]") {
  using medusa::cc::GpuSafetyChecker;
  CHECK(GpuSafetyChecker::isAllowedMathFunction("sqrt"));
  CHECK(GpuSafetyChecker::isAllowedMathFunction("sqrtf"));
  CHECK(GpuSafetyChecker::isAllowedMathFunction("fabsl"));
  CHECK_FALSE(GpuSafetyChecker::isAllowedMathFunction("printf"));
  CHECK(GpuSafetyChecker::isIoFunction("fprintf"));
  CHECK(GpuSafetyChecker::isHeapFunction("realloc"));
  CHECK(GpuSafetyChecker::isAllowedStdRecord("numeric_limits"));
  CHECK_FALSE(GpuSafetyChecker::isAllowedStdRecord("vector"));
  CHECK(GpuSafetyChecker::isAllowedStdFunction("min"));
  CHECK_FALSE(GpuSafetyChecker::isAllowedStdFunction("sort"));
}

TEST_CASE("functors in named namespaces keep their namespace path", "[frontend]") {
  Analysis a = analyze(R"(
namespace app { inline namespace v2 {
struct F { void operator()(Vertex& v) const { v.a = 1; } };
} }
void It() { EMV<VERTEX>::Run(app::F{}); }
)");
  REQUIRE(a.accepted);
  CHECK(a.model.functor("F")->namespaces == NamespacePath{"app", "inline v2"});
}

// ---- EdgeLoopAnalysis: which ELIST functors run edge-parallel --------------------------------

namespace {
// Analyses `functor` (a struct named F) launched over Domain::All.
std::optional<EdgeLoopInfo> edgeLoopOf(const std::string& functor) {
  Analysis a = analyze(functor + "\nvoid It() { EMV<ELIST>::Run(F{}); }\n");
  REQUIRE(a.accepted);
  REQUIRE(a.model.functor("F") != nullptr);
  return a.model.functor("F")->edge_loop;
}
}  // namespace

TEST_CASE("the sample ELIST shapes are edge-parallel", "[frontend]") {
  SECTION("PageRank: prologue, bound a local from v.edge_count()") {
    const auto loop = edgeLoopOf(R"(
struct F {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    int edge_count = v.edge_count();
    float msg = v.a / edge_count;
    for (int i = 0; i < edge_count; i++) el[i].sendMsg(msg);
  }
};)");
    REQUIRE(loop.has_value());
    CHECK(loop->index_name == "i");
    CHECK(loop->index_type == "int");
    CHECK(loop->prologue.begin_line == 9);  // the prelude is 5 lines, then an empty one
    CHECK(loop->prologue.begin_offset < loop->prologue.end_offset);
    CHECK(loop->body.begin_line == 11);
    REQUIRE(loop->uniform_message.has_value());  // `msg`: the same for every edge
    CHECK(loop->uniform_message->begin_line == 11);
    CHECK(loop->uniform_message->end_offset - loop->uniform_message->begin_offset == 3);
  }
  SECTION("BFS-Q: unsigned index, bound el.size(), ++i") {
    const auto loop = edgeLoopOf(R"(
struct F {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    unsigned int next = v.d + 1;
    for (unsigned int j = 0; j < el.size(); ++j) { el[j].sendMsg(next); }
  }
};)");
    REQUIRE(loop.has_value());
    CHECK(loop->index_name == "j");
    CHECK(loop->index_type == "unsigned int");
    CHECK(loop->uniform_message.has_value());  // a one-statement block
  }
  SECTION("CC: no prologue; SetActive and Continue in the body") {
    const auto loop = edgeLoopOf(R"(
struct F {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned int i = 0; i < el.size(); i++) {
      float w = el[i].w;
      if (w > v.a) { el[i].sendMsg(v.a); v.SetActive(); Continue(); }
    }
  }
};)");
    REQUIRE(loop.has_value());
    CHECK(loop->prologue.begin_offset == loop->prologue.end_offset);
    CHECK_FALSE(loop->uniform_message.has_value());  // the send is conditional
  }
}

TEST_CASE("a message is uniform only when every edge sends the same side-effect-free value",
          "[frontend]") {
  const char* const edge_dependent[] = {
      // an edge field
      R"(struct F { void operator()(Vertex& v, EdgeList<Edge>& el) const {
           for (int i = 0; i < el.size(); i++) el[i].sendMsg(el[i].w); } };)",
      // another edge's proxy
      R"(struct F { void operator()(Vertex& v, EdgeList<Edge>& el) const {
           for (int i = 0; i < el.size(); i++) el[i].sendMsg(v.a + el.size()); } };)",
      // a second statement
      R"(struct F { void operator()(Vertex& v, EdgeList<Edge>& el) const {
           for (int i = 0; i < el.size(); i++) { el[i].sendMsg(v.a); el[i].SetActive(); } } };)",
      // a call that might have side effects
      R"(inline float scaled(float x) { return 2 * x; }
         struct F { void operator()(Vertex& v, EdgeList<Edge>& el) const {
           for (int i = 0; i < el.size(); i++) el[i].sendMsg(scaled(v.a)); } };)",
  };
  for (const char* functor : edge_dependent) {
    INFO(functor);
    const auto loop = edgeLoopOf(functor);
    REQUIRE(loop.has_value());  // still edge-parallel
    CHECK_FALSE(loop->uniform_message.has_value());
  }
}

TEST_CASE("ELIST loops that are not provably independent keep the per-vertex path", "[frontend]") {
  const char* const rejected[] = {
      // writes a vertex field
      R"(struct F { void operator()(Vertex& v, EdgeList<Edge>& el) const {
           for (int i = 0; i < el.size(); i++) { v.a += 1; el[i].sendMsg(v.a); } } };)",
      // break
      R"(struct F { void operator()(Vertex& v, EdgeList<Edge>& el) const {
           for (int i = 0; i < el.size(); i++) { if (el[i].w > 1) break; el[i].sendMsg(1); } } };)",
      // the index used other than as el[i]
      R"(struct F { void operator()(Vertex& v, EdgeList<Edge>& el) const {
           for (int i = 0; i < el.size(); i++) el[i].sendMsg(float(i)); } };)",
      // a statement after the loop
      R"(struct F { void operator()(Vertex& v, EdgeList<Edge>& el) const {
           for (int i = 0; i < el.size(); i++) el[i].sendMsg(1); Continue(); } };)",
      // a local of the prologue accumulated in the loop
      R"(struct F { void operator()(Vertex& v, EdgeList<Edge>& el) const {
           float sum = 0; for (int i = 0; i < el.size(); i++) { sum += el[i].w; el[i].sendMsg(sum); } } };)",
      // the loop does not start at 0 / steps by 2 / the bound is not the degree
      R"(struct F { void operator()(Vertex& v, EdgeList<Edge>& el) const {
           for (int i = 1; i < el.size(); i++) el[i].sendMsg(1); } };)",
      R"(struct F { void operator()(Vertex& v, EdgeList<Edge>& el) const {
           for (int i = 0; i < el.size(); i += 2) el[i].sendMsg(1); } };)",
      R"(struct F { void operator()(Vertex& v, EdgeList<Edge>& el) const {
           int n = v.d; for (int i = 0; i < n; i++) el[i].sendMsg(1); } };)",
      // a prologue with a side effect would run once per edge
      R"(struct F { void operator()(Vertex& v, EdgeList<Edge>& el) const {
           int n = el.size(); Continue(); for (int i = 0; i < n; i++) el[i].sendMsg(1); } };)",
      // a helper that takes a prologue local by reference (static locals: GpuSafetyChecker)
      R"(inline void bump(float& x) { x += 1; }
         struct F { void operator()(Vertex& v, EdgeList<Edge>& el) const {
           float s = v.a; for (int i = 0; i < el.size(); i++) { bump(s); el[i].sendMsg(s); } } };)",
      // the edge element derives from the functor: private members would be out of its reach
      R"(class F { float scale = 2; public: void operator()(Vertex& v, EdgeList<Edge>& el) const {
           for (int i = 0; i < el.size(); i++) el[i].sendMsg(scale); } };)",
      // a final functor cannot be derived from by the edge element
      R"(struct F final { void operator()(Vertex& v, EdgeList<Edge>& el) const {
           for (int i = 0; i < el.size(); i++) el[i].sendMsg(1); } };)",
      // the index variable declared before the loop
      R"(struct F { void operator()(Vertex& v, EdgeList<Edge>& el) const {
           int i = 0; for (i = 0; i < el.size(); i++) el[i].sendMsg(1); } };)",
  };
  for (const char* functor : rejected) {
    INFO(functor);
    CHECK_FALSE(edgeLoopOf(functor).has_value());
  }
}

TEST_CASE("a VERTEX launch right after a pass of one ELIST functor names that functor", "[frontend]") {
  const auto next_source = [](const Analysis& a, const std::string& name) {
    for (const FunctorInfo& f : a.model.functors)
      if (f.name == name) return f.next_source_functor;
    FAIL("no functor " << name);
    return std::string();
  };
  const std::string functors = R"(
struct Send { void operator()(Vertex& v, EdgeList<Edge>& el) const {
  for (unsigned i = 0; i < el.size(); i++) el[i].sendMsg(v.a); } };
struct Other { void operator()(Vertex& v, EdgeList<Edge>& el) const {
  for (unsigned i = 0; i < el.size(); i++) el[i].sendMsg(v.b); } };
struct Update { void operator()(Vertex& v) const { v.a = v.combined_msg(); } };
struct Later { void operator()(Vertex& v) const { v.b = v.combined_msg(); } };
)";
  const Analysis a = analyze(functors + R"(
void Step() { InitMessageBuffer(0.0f); EMV<ELIST>::Run(Send{}); Combiner(); EMV<VERTEX>::Run(Update{}); }
void Apart() { EMV<ELIST>::Run(Send{}); Combiner(); EMV<VERTEX>::Run(Update{}, Domain::All);
               EMV<ELIST>::Run(Other{}, Domain::Active); Combiner(); EMV<VERTEX>::Run(Later{}); }
)");
  REQUIRE(a.accepted);
  CHECK(next_source(a, "Update") == "Send");  // (both of its launches follow a pass of Send)
  CHECK(next_source(a, "Later").empty());      // a pass over the frontier only
  CHECK(next_source(a, "Send").empty());

  // After passes of two functors: none; with something between the Combiner and the launch: none.
  const Analysis b = analyze(functors + R"(
void One() { EMV<ELIST>::Run(Send{}); Combiner(); EMV<VERTEX>::Run(Update{}); }
void Two() { EMV<ELIST>::Run(Other{}); Combiner(); EMV<VERTEX>::Run(Update{}); }
void Three() { EMV<ELIST>::Run(Send{}); Combiner(); Continue(); EMV<VERTEX>::Run(Later{}); }
)");
  REQUIRE(b.accepted);
  CHECK(next_source(b, "Update").empty());
  CHECK(next_source(b, "Later").empty());
}
