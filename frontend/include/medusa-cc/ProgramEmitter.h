// Stage 4: writes the translated file from the program model and the user's text, filling the
// templates of codegen-templates/ in the shape docs/design/codegen-contract.md fixes.
#pragma once

#include "medusa-cc/ProgramModel.h"
#include "medusa-cc/TemplateEngine.h"

#include <string>

namespace medusa::cc {

struct EmitOptions {
  std::string source_display;   // the user's file as #line directives and the header name it
  std::string output_name;      // the generated file as its own #line directives name it
  bool host_backend = false;    // defines MEDUSA_BACKEND_HOST at the top
  bool line_directives = true;
  bool edge_parallel = true;    // use FunctorInfo::edge_loop where the analysis found one
  std::string version;
};

class OutputWriter;

class ProgramEmitter {
 public:
  ProgramEmitter(const ProgramModel& model, const std::string& source_text,
                 const TemplateEngine& templates)
      : model_(model), source_(source_text), templates_(templates) {}

  std::string emit(const EmitOptions& options) const;

  // Pieces, public for unit tests.
  std::string programTraits(const EmitOptions& options = {}) const;
  std::string functorBegin(const FunctorInfo& functor) const;
  // The one-thread-per-element element and the launcher.
  // `next_source_work`: the element type nextSourceWork() named, or empty.
  std::string functorEnd(const FunctorInfo& functor, const std::string& next_source_work = "") const;
  // The element's `using medusa_aggregates_added = ...;` line, or "" for a functor that adds none.
  std::string aggregatesAdded(const FunctorInfo& functor) const;
  // The edge element of the pass whose messages a VERTEX functor's element may compute for the
  // next superstep (FunctorInfo::next_source_functor), when that element is emitted before it.
  std::string nextSourceWork(const FunctorInfo& functor, const EmitOptions& options) const;
  // True when `functor` gets the edge-parallel element under `options`.
  static bool edgeParallel(const FunctorInfo& functor, const EmitOptions& options);
  // The registrations of model.replayable_iterations, appended after the user's text.
  std::string replayableIterations() const;
  // The registrations of model.schedules (MEDUSA_SCHEDULE), appended after the user's text.
  std::string schedules() const;

 private:
  struct DeviceField {
    const FieldInfo* field;
    std::vector<std::string> readers, writers;
    bool upload = false, download = false;
    bool edge_read = false;  // read by an ELIST functor (its vertex) or through e.head()
  };
  std::vector<DeviceField> deviceFields(bool vertex) const;
  std::string vertexProxy(const std::string& name, const std::map<std::string, FieldUse>& uses,
                          bool read_only) const;
  std::string fieldInits(const RecordInfo& record, const std::map<std::string, FieldUse>& uses,
                         const std::string& arrays, const std::string& index) const;
  std::string elementBody(const FunctorInfo& functor) const;
  std::string vertexDeclaration(const FunctorInfo& functor) const;
  std::string launcher(const FunctorInfo& functor, bool edge_parallel) const;
  // Writes the edge-parallel element, with #line directives to the copied prologue and body.
  void edgeElement(OutputWriter& out, const FunctorInfo& functor) const;
  // The user's text in [begin, end) with MEDUSA_HD inserted where the model says.
  std::string userText(unsigned begin, unsigned end) const;

  const ProgramModel& model_;
  const std::string& source_;
  const TemplateEngine& templates_;
};

}  // namespace medusa::cc
