#include "medusa-cc/TemplateEngine.h"

#include <catch2/catch.hpp>

using medusa::cc::TemplateEngine;
using medusa::cc::TemplateError;

TEST_CASE("inline placeholders are replaced", "[frontend]") {
  CHECK(TemplateEngine::renderText("struct ${name} : Base<${msg}> {};\n",
                                   {{"name", "Vertex"}, {"msg", "float"}}) ==
        "struct Vertex : Base<float> {};\n");
}

TEST_CASE("a placeholder alone on its line indents a multi-line value", "[frontend]") {
  const std::string text = "struct A {\n  ${members}\n};\n";
  CHECK(TemplateEngine::renderText(text, {{"members", "int a;\nint b;"}}) ==
        "struct A {\n  int a;\n  int b;\n};\n");
  // An empty value removes the line.
  CHECK(TemplateEngine::renderText(text, {{"members", ""}}) == "struct A {\n};\n");
}

TEST_CASE("template comments are dropped", "[frontend]") {
  CHECK(TemplateEngine::renderText("$$ a comment\nx\n", {}) == "x\n");
}

TEST_CASE("unknown placeholders and templates are errors", "[frontend]") {
  CHECK_THROWS_AS(TemplateEngine::renderText("${missing}\n", {}), TemplateError);
  CHECK_THROWS_AS(TemplateEngine::renderText("a ${unterminated\n", {}), TemplateError);
  TemplateEngine engine;
  CHECK_THROWS_AS(engine.render("no_such_template", {}), TemplateError);
}

TEST_CASE("the code generation templates are embedded", "[frontend]") {
  const auto& templates = medusa::cc::embeddedTemplates();
  for (const char* name : {"file_header", "program_traits", "functor_begin", "vertex_proxy",
                           "edge_proxy", "edge_functor_proxy", "head_accessor", "element",
                           "functor_end", "combiner_begin", "combiner_end"}) {
    INFO(name);
    REQUIRE(templates.count(name) == 1);
    CHECK(templates.at(name).find("${") != std::string::npos);
  }
}
