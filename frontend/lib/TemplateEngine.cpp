#include "medusa-cc/TemplateEngine.h"

#include <sstream>
#include <vector>

namespace medusa::cc {
namespace {

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

const std::string& lookup(const TemplateEngine::Values& values, const std::string& key,
                          const std::string& template_name) {
  auto it = values.find(key);
  if (it == values.end())
    throw TemplateError("template '" + template_name + "' uses ${" + key +
                        "}, which the emitter does not provide");
  return it->second;
}

// Replaces the inline placeholders of one line.
std::string substituteInline(const std::string& line, const TemplateEngine::Values& values,
                             const std::string& template_name) {
  std::string out;
  size_t pos = 0;
  while (true) {
    const size_t open = line.find("${", pos);
    if (open == std::string::npos) break;
    const size_t close = line.find('}', open);
    if (close == std::string::npos)
      throw TemplateError("unterminated placeholder in template '" + template_name + "'");
    out += line.substr(pos, open - pos);
    out += lookup(values, line.substr(open + 2, close - open - 2), template_name);
    pos = close + 1;
  }
  out += line.substr(pos);
  return out;
}

}  // namespace

TemplateEngine::TemplateEngine() : templates_(embeddedTemplates()) {}
TemplateEngine::TemplateEngine(std::map<std::string, std::string> templates)
    : templates_(std::move(templates)) {}

std::string TemplateEngine::render(const std::string& name, const Values& values) const {
  auto it = templates_.find(name);
  if (it == templates_.end()) throw TemplateError("no code generation template '" + name + "'");
  return renderText(it->second, values, name);
}

std::string TemplateEngine::renderText(const std::string& text, const Values& values,
                                       const std::string& template_name) {
  std::string out;
  for (const std::string& line : splitLines(text)) {
    if (line.rfind("$$", 0) == 0) continue;
    const size_t first = line.find_first_not_of(' ');
    const bool alone = first != std::string::npos && line.compare(first, 2, "${") == 0 &&
                       line.find('}') == line.size() - 1 && line.find("${", first + 2) == std::string::npos;
    if (alone) {
      const std::string& value =
          lookup(values, line.substr(first + 2, line.size() - first - 3), template_name);
      if (value.empty()) continue;
      out += indentLines(value, static_cast<unsigned>(first));
      if (out.back() != '\n') out += '\n';
      continue;
    }
    out += substituteInline(line, values, template_name);
    out += '\n';
  }
  return out;
}

std::string indentLines(const std::string& text, unsigned spaces) {
  std::string out;
  const std::string pad(spaces, ' ');
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    if (!line.empty()) out += pad + line;
    out += '\n';
    pos = end + 1;
  }
  if (!text.empty() && text.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

}  // namespace medusa::cc
