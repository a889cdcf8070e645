// Fills the text templates of codegen-templates/ (embedded into the binary at build time).
// Syntax: ${name} placeholders; a placeholder alone on its line takes a multi-line value indented
// like the placeholder (an empty value drops the line); lines starting with $$ are comments.
#pragma once

#include <map>
#include <stdexcept>
#include <string>

namespace medusa::cc {

// Name (file stem) -> template text; generated from codegen-templates/*.tmpl.
const std::map<std::string, std::string>& embeddedTemplates();

class TemplateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class TemplateEngine {
 public:
  using Values = std::map<std::string, std::string>;

  // Uses the embedded templates.
  TemplateEngine();
  explicit TemplateEngine(std::map<std::string, std::string> templates);

  // Fills template `name`. Throws TemplateError for an unknown template or placeholder.
  std::string render(const std::string& name, const Values& values) const;
  // Fills a template given as text (for tests).
  static std::string renderText(const std::string& text, const Values& values,
                                const std::string& template_name = "<text>");

 private:
  std::map<std::string, std::string> templates_;
};

// Indents every non-empty line of `text` by `spaces` spaces.
std::string indentLines(const std::string& text, unsigned spaces);

}  // namespace medusa::cc
