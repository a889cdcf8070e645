# Writes OUTPUT: a C++ file that returns every template in TEMPLATES (a ;-list of .tmpl paths) by
# file stem, so medusa-cc needs no template files at run time.
set(body "")
foreach(path IN LISTS TEMPLATES)
  get_filename_component(stem ${path} NAME_WE)
  file(READ ${path} text)
  string(APPEND body "      {\"${stem}\", R\"medusa_tmpl(${text})medusa_tmpl\"},\n")
endforeach()
set(content "// Generated from codegen-templates/*.tmpl by EmbedTemplates.cmake. Do not edit.
#include \"medusa-cc/TemplateEngine.h\"

namespace medusa::cc {
const std::map<std::string, std::string>& embeddedTemplates() {
  static const std::map<std::string, std::string> templates{
${body}  };
  return templates;
}
}  // namespace medusa::cc
")
# Only rewrite when the text changes, so an unrelated re-run does not rebuild.
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE ${OUTPUT} "${content}")
