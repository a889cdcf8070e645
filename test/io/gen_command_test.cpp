// medusa-gen: usage errors (exit 2), input errors (exit 1), and what each command produces.
#include "io_test_support.h"

#include <medusa/io/gen_command.h>

#include <catch2/catch.hpp>

#include <sstream>
#include <sys/wait.h>

using namespace medusa;
using namespace medusa::io;
using namespace medusa::io::test;

namespace {
struct Run {
  int status;
  std::string out, err;
};
Run gen(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  int status = run_medusa_gen(args, out, err);
  return {status, out.str(), err.str()};
}
}  // namespace

TEST_CASE("medusa-gen --help shows usage and examples", "[io][medusa-gen]") {
  const Run help = gen({"--help"});
  CHECK(help.status == 0);
  CHECK_THAT(help.out, Catch::Contains("medusa-gen kron --scale 22"));
  CHECK_THAT(help.out, Catch::Contains("convert"));
  CHECK(gen({"grid", "--help"}).status == 0);
}

TEST_CASE("medusa-gen usage errors exit with 2 and say what is wrong", "[io][medusa-gen]") {
  auto usage = [](const std::vector<std::string>& args, const std::string& message) {
    const Run run = gen(args);
    INFO(run.err);
    CHECK(run.status == 2);
    CHECK(run.err == "medusa-gen: " + message + "\nRun 'medusa-gen --help' for usage.\n");
  };
  usage({}, "missing command");
  usage({"kronecker"}, "unknown command 'kronecker'");
  usage({"kron", "-o", "x.mtx"}, "kron needs --scale");
  usage({"kron", "--scale", "20"}, "kron needs -o FILE");
  usage({"kron", "--scale", "40", "-o", "x.mtx"}, "--scale expects an integer from 1 to 31, got '40'");
  usage({"kron", "--scale", "ten", "-o", "x.mtx"}, "--scale expects an integer from 1 to 31, got 'ten'");
  usage({"kron", "--scale", "5", "-o", "x.csv"},
        "cannot tell the output format of 'x.csv' (expected .medusa-bin, .mtx, .txt, .el, .snap, .gr or .graph)");
  usage({"kron", "--scale", "5", "--rows", "3", "-o", "x.mtx"}, "--rows does not apply to 'kron'");
  usage({"kron", "--scale", "5", "--frobnicate", "-o", "x.mtx"}, "unknown option --frobnicate");
  usage({"kron", "--scale", "5", "--weights", "9:1", "-o", "x.mtx"}, "--weights expects LO:HI with integers LO <= HI, got '9:1'");
  usage({"uniform", "--vertices", "10", "-o", "x.mtx"}, "uniform needs --edges");
  usage({"grid", "--rows", "3", "--cols", "3", "extra", "-o", "x.mtx"}, "unexpected argument 'extra'");
  usage({"convert", "-o", "x.mtx"}, "convert needs exactly one input file");
  usage({"info", "a.mtx", "--format", "csv"}, "--format expects mtx, snap, dimacs, metis or binary, got 'csv'");
  usage({"kron", "--scale"}, "--scale needs a value");
}

TEST_CASE("medusa-gen impossible generator parameters exit with 2", "[io][medusa-gen]") {
  TempDir dir;
  const Run run = gen({"uniform", "--vertices", "3", "--edges", "10", "--simple", "-o", dir.file("u.txt")});
  CHECK(run.status == 2);
  CHECK(run.err == "medusa-gen: cannot draw 10 distinct edges: only 6 exist with these options\n");
}

TEST_CASE("medusa-gen input and output failures exit with 1 and name file:line", "[io][medusa-gen]") {
  TempDir dir;
  write_file(dir.file("bad.gr"), "p sp 2 1\na 1 3 1\n");
  const Run bad = gen({"info", dir.file("bad.gr")});
  CHECK(bad.status == 1);
  CHECK(bad.err == "medusa-gen: " + dir.file("bad.gr") +
                       ":2: vertex id out of range (expected arc head from 1 to 2, the declared vertex count, got 3)\n");
  CHECK(gen({"convert", dir.file("missing.mtx"), "-o", dir.file("x.medusa-bin")}).status == 1);
  write_file(dir.file("loop.txt"), "0 0\n0 1\n");
  const Run loops = gen({"convert", dir.file("loop.txt"), "--symmetric", "-o", dir.file("loop.graph")});
  CHECK(loops.status == 1);
  CHECK(loops.err == "medusa-gen: " + dir.file("loop.graph") +
                         ":0: METIS files cannot hold self loops: remove them first; nothing written\n");
  CHECK(gen({"convert", dir.file("loop.txt"), "--symmetric", "--no-self-loops", "-o", dir.file("loop.graph")}).status == 0);
  const Run unwritable = gen({"grid", "--rows", "2", "--cols", "2", "-o", dir.file("no/such/dir/g.mtx")});
  CHECK(unwritable.status == 1);
  CHECK_THAT(unwritable.err, Catch::Contains("cannot create"));
}

TEST_CASE("medusa-gen generates, converts and describes graphs", "[io][medusa-gen]") {
  TempDir dir;
  const Run made = gen({"grid", "--rows", "3", "--cols", "4", "--weights", "1:9", "--seed", "5", "-o", dir.file("g.mtx")});
  REQUIRE(made.status == 0);
  CHECK_THAT(made.out, Catch::StartsWith("wrote " + dir.file("g.mtx") + ": grid, 12 vertices, 34 edges (symmetric)"));
  const auto grid = read_graph(dir.file("g.mtx"));
  CHECK(grid.edge_count() == 34);
  CHECK(grid.weighted());

  REQUIRE(gen({"convert", dir.file("g.mtx"), "-o", dir.file("g.medusa-bin")}).status == 0);
  const auto converted = read_graph(dir.file("g.medusa-bin"));
  CHECK(weighted_edges_of(converted) == weighted_edges_of(grid));

  const Run info = gen({"info", dir.file("g.medusa-bin")});
  CHECK(info.status == 0);
  CHECK_THAT(info.out, Catch::Contains("vertices: 12\n"));
  CHECK_THAT(info.out, Catch::Contains("edges: 34 (directed, as stored)\n"));
  CHECK_THAT(info.out, Catch::Contains("out-degree: min 2, max 4"));
  // 12 vertices: the top 1% is one vertex of degree 8 (4 out, 4 in) of 68 endpoints.
  CHECK_THAT(info.out, Catch::Contains("hubs: the top 1% of vertices hold 11.8% of edge endpoints; one-GPU runs "
                                       "number vertices by ID (VertexOrder::Auto)\n"));

  // Same seed, same file; the tool and the library agree.
  REQUIRE(gen({"kron", "--scale", "8", "--seed", "3", "-o", dir.file("a.medusa-bin")}).status == 0);
  REQUIRE(gen({"kron", "--scale", "8", "--seed", "3", "-o", dir.file("b.medusa-bin")}).status == 0);
  CHECK(read_file(dir.file("a.medusa-bin")) == read_file(dir.file("b.medusa-bin")));
  REQUIRE(gen({"bipartite", "--left", "5", "--right", "7", "--edges", "20", "-o", dir.file("bp.txt")}).status == 0);
  CHECK(read_graph(dir.file("bp.txt")).edge_count() == 20);
  REQUIRE(gen({"rmat", "--scale", "6", "--edges", "100", "--symmetric", "-o", dir.file("r.gr")}).status == 0);
  CHECK(read_graph(dir.file("r.gr")).edge_count() <= 200);
}

TEST_CASE("The medusa-gen executable returns the documented exit codes", "[io][medusa-gen]") {
  const std::string tool = MEDUSA_GEN_EXECUTABLE;
  auto exit_code = [&](const std::string& arguments) {
    int status = std::system((tool + " " + arguments + " >/dev/null 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  CHECK(exit_code("--help") == 0);
  CHECK(exit_code("kron") == 2);
  CHECK(exit_code("info /nonexistent/graph.mtx") == 1);
}
