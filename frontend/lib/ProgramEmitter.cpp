#include "medusa-cc/ProgramEmitter.h"

#include "medusa-cc/SuperstepPlan.h"

#include <medusa/program.h>  // kCodegenContract: the runtime this medusa-cc emits for

#include <algorithm>
#include <set>

namespace medusa::cc {
namespace {

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + items[i];
  return out;
}

std::string quotePath(const std::string& path) {
  std::string out = "\"";
  for (char ch : path) {
    if (ch == '\\' || ch == '"') out += '\\';
    out += ch;
  }
  return out + "\"";
}

std::string plainName(const std::string& ns) {
  return ns.rfind("inline ", 0) == 0 ? ns.substr(7) : ns;
}
// Specializations of medusa templates must be declared at global scope: these close and reopen
// the user's namespaces around them.
std::string leaveScope(const NamespacePath& path) {
  std::vector<std::string> lines;
  for (auto it = path.rbegin(); it != path.rend(); ++it)
    lines.push_back("}  // namespace " + plainName(*it));
  return join(lines, "\n");
}
std::string enterScope(const NamespacePath& path) {
  std::vector<std::string> lines;
  for (const std::string& ns : path)
    lines.push_back((ns == plainName(ns) ? "" : "inline ") + std::string("namespace ") +
                    plainName(ns) + " {");
  return join(lines, "\n");
}
std::string scopePrefix(const NamespacePath& path) {
  std::string out;
  for (const std::string& ns : path) out += "::" + plainName(ns);
  return path.empty() ? "" : out + "::";
}

// Whether a uniform message reads only its vertex, the degrees and the functor's members: no
// superstep, vote, frontier or combined value. The runtime may then compute it a superstep early,
// right after the vertex's VERTEX step.
bool steadyMessage(const FunctorInfo& f) {
  return !(f.uses_superstep || f.continue_vote || f.halt_vote || f.sets_vertex_active || f.sets_edge_active ||
           f.reads_combined || !f.aggregates_read.empty());
}

}  // namespace

// Accumulates the output and knows its own line numbers, for #line directives back to it.
class OutputWriter {
 public:
  OutputWriter(const EmitOptions& options) : options_(options) {}

  void append(const std::string& text) {
    if (text.empty()) return;
    text_ += text;
    if (text_.back() != '\n') text_ += '\n';
  }
  // The following text is the user's, starting at `line`.
  void toUser(unsigned line) {
    if (options_.line_directives)
      append("#line " + std::to_string(line) + " " + quotePath(options_.source_display) + "\n");
  }
  // The following text is generated.
  void toGenerated() {
    if (options_.line_directives)
      append("#line " + std::to_string(currentLine() + 1) + " " + quotePath(options_.output_name) +
             "\n");
  }
  unsigned currentLine() const {
    return 1 + static_cast<unsigned>(std::count(text_.begin(), text_.end(), '\n'));
  }
  std::string take() { return std::move(text_); }

 private:
  const EmitOptions& options_;
  std::string text_;
};

namespace {

std::string fieldList(const RecordInfo& record, const std::map<std::string, FieldUse>& uses,
                      const std::string& prefix, bool written) {
  std::vector<std::string> names;
  for (const FieldInfo& f : record.fields) {
    auto it = uses.find(f.name);
    if (it == uses.end()) continue;
    if (written ? it->second.written : it->second.read) names.push_back(prefix + f.name);
  }
  return join(names, ", ");
}

}  // namespace

std::string ProgramEmitter::userText(unsigned begin, unsigned end) const {
  std::vector<unsigned> insertions = model_.hd_insertions;
  std::sort(insertions.begin(), insertions.end());
  insertions.erase(std::unique(insertions.begin(), insertions.end()), insertions.end());
  std::string out;
  unsigned pos = begin;
  for (unsigned at : insertions) {
    if (at < begin || at >= end) continue;
    out += source_.substr(pos, at - pos);
    out += "MEDUSA_HD ";
    pos = at;
  }
  out += source_.substr(pos, end - pos);
  return out;
}

std::vector<ProgramEmitter::DeviceField> ProgramEmitter::deviceFields(bool vertex) const {
  const RecordInfo& record = vertex ? model_.vertex : model_.edge;
  std::vector<DeviceField> out;
  for (const FieldInfo& field : record.fields) {
    DeviceField d{&field, {}, {}, false, false, false};
    bool needs_initial_values = false;
    for (const FunctorInfo& functor : model_.functors) {
      FieldUse use;
      auto merge = [&](const std::map<std::string, FieldUse>& uses, bool edge_side) {
        auto it = uses.find(field.name);
        if (it == uses.end()) return;
        use.read |= it->second.read;
        use.written |= it->second.written;
        use.written_unconditionally |= it->second.written_unconditionally;
        // A partitioned run keeps head-vertex replicas of exactly these fields fresh.
        if (edge_side && it->second.read) d.edge_read = true;
      };
      if (vertex) {
        merge(functor.vertex_fields, functor.kind == ApiKind::Elist);
        merge(functor.head_fields, functor.kind == ApiKind::Elist || functor.kind == ApiKind::Edge);
        merge(functor.by_id_fields, false);  // (one partition only: the runtime refuses more)
      } else {
        merge(functor.edge_fields, false);
      }
      if (use.read) d.readers.push_back(functor.name);
      if (use.written) {
        d.writers.push_back(functor.name);
        // A write that does not cover every element keeps the other elements' host values,
        // so they must be uploaded first.
        const bool covers_all =
            use.written_unconditionally &&
            std::all_of(functor.domains.begin(), functor.domains.end(),
                        [](DomainUse dom) { return dom == DomainUse::All; });
        if (!covers_all) needs_initial_values = true;
      }
    }
    if (d.readers.empty() && d.writers.empty()) continue;
    d.upload = !d.readers.empty() || needs_initial_values;
    d.download = !d.writers.empty();
    out.push_back(d);
  }
  return out;
}

std::string ProgramEmitter::programTraits(const EmitOptions& options) const {
  TemplateEngine::Values values;
  values["vertex"] = model_.vertex.qualified;
  values["edge"] = model_.edge.qualified;
  values["message"] = model_.message_type;
  for (bool vertex : {true, false}) {
    const std::string prefix = vertex ? "vertex" : "edge";
    const RecordInfo& record = vertex ? model_.vertex : model_.edge;
    std::vector<std::string> members, specs, binds;
    const std::vector<DeviceField> fields = deviceFields(vertex);
    for (size_t i = 0; i < fields.size(); ++i) {
      const DeviceField& d = fields[i];
      std::string comment;
      if (!d.readers.empty()) comment += "read by " + join(d.readers, ", ");
      if (!d.writers.empty())
        comment += std::string(comment.empty() ? "" : "; ") + "written by " + join(d.writers, ", ");
      members.push_back(d.field->declarator("*", false) + ";  // " + comment);
      std::vector<std::string> direction;
      if (d.upload) direction.push_back("medusa::kUpload");
      if (d.download) direction.push_back("medusa::kDownload");
      if (d.edge_read) direction.push_back("medusa::kEdgeRead");
      specs.push_back("{\"" + d.field->name + "\", offsetof(" + record.qualified + ", " +
                      d.field->name + "), sizeof(" + d.field->type + "), " +
                      join(direction, " | ") + "},");
      binds.push_back("static_cast<" + d.field->pointerType() + ">(a[" + std::to_string(i) + "])");
    }
    // Multi-line values inside one template line: indented here.
    values[prefix + "_array_members"] =
        members.empty() ? "" : "\n    " + join(members, "\n    ") + "\n  ";
    values[prefix + "_field_specs"] =
        specs.empty() ? "" : "{\n      " + join(specs, "\n      ") + "\n  }";
    values[prefix + "_field_count"] = std::to_string(fields.size());
    values[prefix + "_binds"] = join(binds, ",\n            ");
  }
  const ProgramUsesInfo uses = model_.uses();
  // ELIST loops emitted one thread per vertex: the runtime may give them column-major edges.
  bool vertex_edge_loops = false;
  for (const FunctorInfo& f : model_.functors)
    vertex_edge_loops |= f.kind == ApiKind::Elist && !f.in_edges && !edgeParallel(f, options);
  std::vector<std::string> flags;
  const auto flag = [&flags](bool on, const char* name) {
    if (on) flags.push_back(std::string("medusa::") + name);
  };
  flag(uses.continue_vote, "kUsesContinueVote");
  flag(uses.halt_vote, "kUsesHaltVote");
  flag(uses.vertex_frontier, "kUsesVertexFrontier");
  flag(uses.edge_frontier, "kUsesEdgeFrontier");
  flag(uses.received, "kUsesReceived");
  flag(uses.messages, "kUsesMessages");
  flag(uses.edge_reads_combined, "kUsesEdgeReadsCombined");
  flag(vertex_edge_loops, "kUsesVertexEdgeLoops");
  flag(uses.combiner_consumes_slots, "kUsesCombinerConsumesSlots");
  flag(uses.neighbor_sets, "kUsesNeighborSets");
  flag(uses.reads_by_id, "kUsesReadsById");
  flag(uses.sends_by_id, "kUsesSendsById");
  flag(uses.priorities, "kUsesPriorities");
  flag(uses.in_edges, "kUsesInEdges");
  values["uses_flags"] = flags.empty() ? "medusa::kUsesNothing" : join(flags, " |\n      ");
  values["codegen_contract"] = std::to_string(medusa::kCodegenContract);
  return templates_.render("program_traits", values);
}

std::string ProgramEmitter::schedules() const {
  std::vector<std::string> lines;
  for (const ScheduleInfo& s : model_.schedules) {
    std::string name = "medusa_schedule_of_";
    for (char c : s.function) name += c == ':' ? '_' : c;  // ("ns::F" -> medusa_schedule_of_ns__F)
    lines.push_back("static const bool " + name + " = medusa::detail::register_schedule(\n    &::" + s.function +
                    ", " + scheduleExpression(s) + ", \"" + s.where + "\");");
  }
  return templates_.render("schedules", {{"registrations", join(lines, "\n")}});
}

std::string ProgramEmitter::replayableIterations() const {
  std::vector<std::string> lines;
  std::set<std::string> used;
  for (const std::string& function : model_.replayable_iterations) {
    // "::ns::Step" -> medusa_replayable_ns_Step; a suffix keeps "::a_b::C" and "::a::b_C" apart.
    std::string base = "medusa_replayable";
    for (size_t at = 0; at < function.size();) {
      if (function.compare(at, 2, "::") == 0) base += '_', at += 2;
      else base += function[at++];
    }
    std::string name = base;
    for (int n = 2; !used.insert(name).second; ++n) name = base + "_" + std::to_string(n);
    lines.push_back("static const bool " + name +
                    " = medusa::detail::register_replayable_iteration(&" + function + ");");
  }
  return templates_.render("replayable_iterations", {{"registrations", join(lines, "\n")}});
}

std::string ProgramEmitter::vertexProxy(const std::string& name,
                                        const std::map<std::string, FieldUse>& uses,
                                        bool read_only) const {
  std::vector<std::string> members;
  for (const FieldInfo& f : model_.vertex.fields) {
    auto it = uses.find(f.name);
    if (it == uses.end()) continue;
    const bool writable = !read_only && it->second.written;
    members.push_back(f.declarator("&", !writable) + ";");
  }
  return templates_.render(
      "vertex_proxy", {{"name", name}, {"message", model_.message_type}, {"members", join(members, "\n")}});
}

// The fields a functor's vertex proxy binds: its own, plus those it reads by id (vertex_at), which
// the same proxy type holds for another vertex.
static std::map<std::string, FieldUse> withByIdFields(std::map<std::string, FieldUse> own, const FunctorInfo& functor) {
  for (const auto& [name, use] : functor.by_id_fields) own[name].read |= use.read;
  return own;
}

std::string ProgramEmitter::fieldInits(const RecordInfo& record,
                                       const std::map<std::string, FieldUse>& uses,
                                       const std::string& arrays, const std::string& index) const {
  std::string out;
  for (const FieldInfo& f : record.fields)
    if (uses.count(f.name)) out += ", " + arrays + f.name + "[" + index + "]";
  return out;
}

std::string ProgramEmitter::functorBegin(const FunctorInfo& functor) const {
  const std::string& message = model_.message_type;
  std::vector<std::string> proxies;
  const bool has_vertex = functor.kind == ApiKind::Vertex || functor.kind == ApiKind::Elist ||
                          functor.kind == ApiKind::Mlist;
  if (has_vertex && functor.reads_by_id) {
    // vertex_at(v, id): the same proxy type, bound to vertex id (medusa/by_id.h).
    const std::map<std::string, FieldUse> fields = withByIdFields(functor.vertex_fields, functor);
    std::string proxy = vertexProxy(model_.vertex.name, fields, false);
    const std::string& name = model_.vertex.name;
    const std::string extra = "  const medusa_program::VertexArrays* medusa_va_;\n  MEDUSA_HD " + name +
                              " medusa_vertex_at(medusa::VertexId id) const {\n    return " + name +
                              "{{medusa_ctx_, id}, medusa_va_" + fieldInits(model_.vertex, fields, "medusa_va_->", "id") +
                              "};\n  }\n";
    proxy.insert(proxy.find('{') + 2, extra);
    proxies.push_back(proxy);
  } else if (has_vertex) {
    proxies.push_back(vertexProxy(model_.vertex.name, functor.vertex_fields, false));
  }
  if (functor.kind == ApiKind::Elist) {
    std::vector<std::string> members;
    for (const FieldInfo& f : model_.edge.fields) {
      auto it = functor.edge_fields.find(f.name);
      if (it != functor.edge_fields.end())
        members.push_back(f.declarator("&", !it->second.written) + ";");
    }
    proxies.push_back(templates_.render(
        "edge_proxy", {{"name", model_.edge.name},
                       {"message", message},
                       {"members", join(members, "\n")},
                       {"field_inits", fieldInits(model_.edge, functor.edge_fields, "a.", "e")}}));
  }
  if (functor.kind == ApiKind::Edge) {
    std::vector<std::string> members;
    std::string head_accessor;
    if (functor.uses_head || functor.reads_by_id) {
      // The head proxy carries the user's vertex type name, so `const Vertex& h = e.head();`
      // compiles unchanged; vertex_at(e, id) gives the same type for vertex id.
      const std::map<std::string, FieldUse> fields = withByIdFields(functor.head_fields, functor);
      proxies.push_back(vertexProxy(model_.vertex.name, fields, true));
      members.push_back("const medusa_program::VertexArrays* medusa_va_;");
      head_accessor = templates_.render(
          "head_accessor",
          {{"head_proxy", model_.vertex.name},
           {"head_inits", fieldInits(model_.vertex, fields, "medusa_va_->", "medusa_head_")}});
      if (functor.reads_by_id)
        head_accessor += "\n// vertex_at(e, id): vertex id (read-only fields).\nMEDUSA_HD " + model_.vertex.name +
                         " medusa_vertex_at(medusa::VertexId id) const {\n  return " + model_.vertex.name +
                         "{{medusa_ctx_, id}" + fieldInits(model_.vertex, fields, "medusa_va_->", "id") + "};\n}";
    }
    for (const FieldInfo& f : model_.edge.fields) {
      auto it = functor.edge_fields.find(f.name);
      if (it != functor.edge_fields.end())
        members.push_back(f.declarator("&", !it->second.written) + ";");
    }
    proxies.push_back(templates_.render("edge_functor_proxy",
                                        {{"name", model_.edge.name},
                                         {"message", message},
                                         {"members", join(members, "\n")},
                                         {"head_accessor", head_accessor}}));
  }
  // Global aggregates: the name the body uses, bound to the aggregate's device slot.
  for (size_t i = 0; i < model_.aggregates.size(); ++i) {
    const AggregateInfo& a = model_.aggregates[i];
    if (functor.uses_aggregate(static_cast<int>(i)))
      proxies.push_back("static constexpr medusa::AggregateRefOf<decltype(" + a.qualified + "), " +
                        std::to_string(i) + "> " + a.name + "{};\n");
  }
  std::vector<std::string> reads, writes;
  for (const auto& [uses, prefix] :
       {std::pair{&functor.vertex_fields, std::string("vertex.")},
        std::pair{&functor.edge_fields, std::string("edge.")},
        std::pair{&functor.head_fields, std::string("head.")},
        std::pair{&functor.by_id_fields, std::string("vertex_at.")}}) {
    const RecordInfo& record = prefix == "edge." ? model_.edge : model_.vertex;
    std::string r = fieldList(record, *uses, prefix, false), w = fieldList(record, *uses, prefix, true);
    if (!r.empty()) reads.push_back(r);
    if (!w.empty()) writes.push_back(w);
  }
  return templates_.render(
      "functor_begin",
      {{"functor", functor.name},
       {"kind", apiKindName(functor.kind)},
       {"reads", reads.empty() ? "no fields" : join(reads, ", ")},
       {"writes", writes.empty() ? "no fields" : join(writes, ", ")},
       {"proxies", join(proxies, "")}});
}

std::string ProgramEmitter::vertexDeclaration(const FunctorInfo& functor) const {
  if (functor.reads_by_id)
    return model_.vertex.name + " v{{&c, id}, &va" +
           fieldInits(model_.vertex, withByIdFields(functor.vertex_fields, functor), "va.", "id") + "};";
  return model_.vertex.name + " v{{&c, id}" +
         fieldInits(model_.vertex, functor.vertex_fields, "va.", "id") + "};";
}

std::string ProgramEmitter::elementBody(const FunctorInfo& functor) const {
  std::vector<std::string> lines;
  std::vector<std::string> args;
  for (const ParamInfo& p : functor.params) {
    switch (p.role) {
      case ParamRole::Vertex:
        lines.push_back(vertexDeclaration(functor));
        args.push_back("v");
        break;
      case ParamRole::EdgeList:
        lines.push_back("medusa::EdgeList<" + model_.edge.name + "> el(&c, &ea, id);");
        args.push_back("el");
        break;
      case ParamRole::MessageList:
        lines.push_back("medusa::MessageList<" + model_.message_type + "> ml(&c, id);");
        args.push_back("ml");
        break;
      case ParamRole::Edge: {
        std::string init = "{{&c, eid, c.edge_src[eid], c.out_dst[eid]}";
        if (functor.uses_head || functor.reads_by_id) init += ", &va";
        init += fieldInits(model_.edge, functor.edge_fields, "ea.", "eid") + "}";
        lines.push_back(model_.edge.name + " e" + init + ";");
        args.push_back("e");
        break;
      }
      case ParamRole::Message:
        args.push_back("c.messages[slot]");
        break;
    }
  }
  // Proxies are declared in parameter order; declare the vertex before the list it feeds.
  std::stable_sort(lines.begin(), lines.end(), [&](const std::string& a, const std::string& b) {
    return a.rfind(model_.vertex.name + " ", 0) == 0 && b.rfind(model_.vertex.name + " ", 0) != 0;
  });
  lines.push_back("f(" + join(args, ", ") + ");");
  return join(lines, "\n");
}

std::string ProgramEmitter::nextSourceWork(const FunctorInfo& functor, const EmitOptions& options) const {
  if (functor.kind != ApiKind::Vertex || functor.next_source_functor.empty()) return "";
  for (const FunctorInfo& pass : model_.functors) {
    // Its element must exist (edge-parallel, uniform and steady) and come first in the file.
    if (pass.name != functor.next_source_functor || !edgeParallel(pass, options) ||
        !pass.edge_loop->uniform_message || !steadyMessage(pass) ||
        pass.region.begin_offset >= functor.region.begin_offset)
      continue;
    const std::string scope = scopePrefix(pass.namespaces);
    return (scope.empty() ? "::" : scope) + "medusa_gen_" + pass.name + "::" + pass.name + "_edge_element";
  }
  return "";
}

std::string ProgramEmitter::aggregatesAdded(const FunctorInfo& functor) const {
  if (functor.aggregates_added.empty()) return "";
  std::vector<std::string> refs;
  for (int i : functor.aggregates_added) refs.push_back("decltype(" + model_.aggregates[static_cast<size_t>(i)].name + ")");
  return "  // The aggregates it adds to (CUDA: reduced per block, backend/cuda/block_aggregates.cuh).\n"
         "  using medusa_aggregates_added = medusa::AddedAggregates<" + join(refs, ", ") + ">;\n";
}

std::string ProgramEmitter::functorEnd(const FunctorInfo& functor, const std::string& next_source_work) const {
  std::string index_type = "VertexId", index = "id";
  if (functor.kind == ApiKind::Edge) index_type = "EdgeIndex", index = "eid";
  if (functor.kind == ApiKind::Message) index_type = "EdgeIndex", index = "slot";
  std::string hint = aggregatesAdded(functor);
  if (!next_source_work.empty())
    hint += "  // A pass of " + functor.next_source_functor + " precedes this launch: its next superstep's messages\n"
           "  // may be computed here (runtime: source_prefetch.cuh).\n"
           "  using medusa_next_source_work = " + next_source_work + ";\n";
  std::string element = templates_.render("element", {{"functor", functor.name},
                                                      {"next_source_work", hint},
                                                      {"message", model_.message_type},
                                                      {"index_type", index_type},
                                                      {"index", index},
                                                      {"body", elementBody(functor)}});
  return element + launcher(functor, false);
}

std::string ProgramEmitter::launcher(const FunctorInfo& functor, bool edge_parallel) const {
  std::string launch = edge_parallel
                           ? std::string("medusa::exec::run_elist_edges")
                           : "medusa::exec::run<medusa::" + std::string(apiKindName(functor.kind)) + ">";
  std::string element = functor.name + (edge_parallel ? "_edge_element" : "_element");
  if (functor.in_edges) launch = "medusa::exec::run_elist_in_edges", element = functor.name + "_in_edge_element";
  return templates_.render("functor_end",
                           {{"functor", functor.name},
                            {"kind", apiKindName(functor.kind)},
                            {"launch", launch},
                            {"element", element},
                            {"scope", scopePrefix(functor.namespaces)},
                            {"leave_scope", leaveScope(functor.namespaces)},
                            {"enter_scope", enterScope(functor.namespaces)}});
}

bool ProgramEmitter::edgeParallel(const FunctorInfo& functor, const EmitOptions& options) {
  return options.edge_parallel && functor.kind == ApiKind::Elist && functor.edge_loop.has_value();
}

void ProgramEmitter::edgeElement(OutputWriter& out, const FunctorInfo& functor) const {
  const EdgeLoopInfo& loop = *functor.edge_loop;
  std::string vertex_param, list_param;
  for (const ParamInfo& p : functor.params) {
    if (p.role == ParamRole::Vertex) vertex_param = p.name;
    if (p.role == ParamRole::EdgeList || p.role == ParamRole::InEdgeList) list_param = p.name;
  }
  // The proxies of vertex `id`, as both generated entry points build them.
  const std::string proxies =
      vertexDeclaration(functor) + "\nmedusa::EdgeList<" + model_.edge.name + "> el(&c, &ea, id);\n";
  const std::string body = functor.in_edges ? vertexDeclaration(functor) + "\nmedusa::InEdgeList<" + model_.edge.name +
                                                  "> el(&c, &ea, id, eid, head);\nmedusa_edge(v, el, 0);"
                                            : proxies + "medusa_edge(v, el, i);";
  out.append(templates_.render(functor.in_edges ? "in_edge_element_begin" : "edge_element_begin", {{"functor", functor.name},
                                                      {"message", model_.message_type},
                                                      {"vertex", model_.vertex.name},
                                                      {"edge", model_.edge.name},
                                                      {"vertex_param", vertex_param},
                                                      {"list_param", list_param},
                                                      {"index_type", loop.index_type},
                                                      {"aggregates_added", aggregatesAdded(functor)},
                                                      {"body", body}}));
  // The prologue runs again for every edge; the loop variable is this work item's edge. The
  // index declaration stays on the user's `for` line, so diagnostics point there.
  out.toUser(loop.prologue.begin_line);
  out.append("    " + userText(loop.prologue.begin_offset, loop.prologue.end_offset) + "{ const " +
             loop.index_type + " " + loop.index_name + " = medusa_edge_index;");
  out.toUser(loop.body.begin_line);
  out.append("      " + userText(loop.body.begin_offset, loop.body.end_offset) + ";");
  out.toGenerated();
  out.append(templates_.render("edge_element_end", {}));
  if (loop.uniform_message) {
    const std::string source = proxies + "return medusa_message(v, el);";
    out.append(templates_.render("edge_element_message_begin", {{"message", model_.message_type},
                                                                {"vertex", model_.vertex.name},
                                                                {"edge", model_.edge.name},
                                                                {"vertex_param", vertex_param},
                                                                {"list_param", list_param},
                                                                {"steady", steadyMessage(functor) ? "true" : "false"},
                                                                {"body", source}}));
    if (loop.prologue.begin_offset != loop.prologue.end_offset) {
      std::string prologue = userText(loop.prologue.begin_offset, loop.prologue.end_offset);
      prologue.erase(prologue.find_last_not_of(" \t\n") + 1);  // the indentation of the `for`
      out.toUser(loop.prologue.begin_line);
      out.append("    " + prologue);
    }
    out.toUser(loop.uniform_message->begin_line);
    out.append("    return (" +
               userText(loop.uniform_message->begin_offset, loop.uniform_message->end_offset) + ");");
    out.toGenerated();
    out.append(templates_.render("edge_element_message_end", {}));
  }
  out.append(templates_.render("edge_element_close", {}));
}

std::string ProgramEmitter::emit(const EmitOptions& options) const {
  OutputWriter out(options);
  out.append(templates_.render(
      "file_header", {{"version", options.version},
                      {"source", options.source_display},
                      {"backend_define", options.host_backend ? "#define MEDUSA_BACKEND_HOST 1" : ""}}));

  // The regions replaced by generated code, in source order.
  struct Region {
    SourceRegion where;
    const FunctorInfo* functor;
    const CombinerInfo* combiner;
  };
  std::vector<Region> regions;
  for (const FunctorInfo& f : model_.functors) regions.push_back({f.region, &f, nullptr});
  for (const CombinerInfo& c : model_.combiners) regions.push_back({c.region, nullptr, &c});
  std::sort(regions.begin(), regions.end(), [](const Region& a, const Region& b) {
    return a.where.begin_offset < b.where.begin_offset;
  });
  // The program description needs complete vertex and edge types; it goes right before the first
  // region after them (or right after them). A combiner defined before the types gets its
  // launcher after the description.
  const unsigned types_end = std::max(model_.vertex.region.end_offset, model_.edge.region.end_offset);
  unsigned traits_at = types_end;
  for (const Region& r : regions)
    if (r.where.begin_offset >= types_end) {
      traits_at = r.where.begin_offset;
      break;
    }

  auto lineOf = [&](unsigned offset) {
    return 1 + static_cast<unsigned>(std::count(source_.begin(), source_.begin() + offset, '\n'));
  };
  unsigned pos = 0;
  bool traits_done = false;
  std::vector<const CombinerInfo*> deferred_combiners;
  auto copyUser = [&](unsigned end) {
    if (end <= pos) return;
    out.toUser(lineOf(pos));
    out.append(userText(pos, end));
    pos = end;
  };
  auto combinerEnd = [&](const CombinerInfo& c, bool at_global_scope) {
    const NamespacePath none;
    const NamespacePath& around = at_global_scope ? none : c.namespaces;
    return templates_.render("combiner_end", {{"combiner", c.name},
                                              {"scope", scopePrefix(c.namespaces)},
                                              {"leave_scope", leaveScope(around)},
                                              {"enter_scope", enterScope(around)}});
  };
  // `namespaces`: where the user's text stands at traits_at.
  auto emitTraits = [&](const NamespacePath& namespaces) {
    copyUser(traits_at);
    out.toGenerated();
    out.append(leaveScope(namespaces));
    out.append(programTraits(options));
    for (const CombinerInfo* c : deferred_combiners) out.append(combinerEnd(*c, true));
    out.append(enterScope(namespaces));
    traits_done = true;
  };
  for (const Region& r : regions) {
    if (!traits_done && r.where.begin_offset >= traits_at) {
      emitTraits(r.functor ? r.functor->namespaces : r.combiner->namespaces);
    } else {
      copyUser(r.where.begin_offset);
      out.toGenerated();
    }
    if (r.functor) out.append(functorBegin(*r.functor));
    else out.append(templates_.render("combiner_begin", {{"combiner", r.combiner->name}}));
    out.toUser(r.where.begin_line);
    out.append(userText(r.where.begin_offset, r.where.end_offset));
    pos = r.where.end_offset;
    if (r.functor && (edgeParallel(*r.functor, options) || (r.functor->in_edges && r.functor->edge_loop))) {
      out.toGenerated();
      edgeElement(out, *r.functor);
      out.append(launcher(*r.functor, true));
    } else if (r.functor) {
      out.toGenerated();
      out.append(functorEnd(*r.functor, nextSourceWork(*r.functor, options)));
    } else if (traits_done) {
      out.toGenerated();
      out.append(combinerEnd(*r.combiner, false));
    } else {
      deferred_combiners.push_back(r.combiner);
    }
  }
  if (!traits_done) {
    const RecordInfo& last = model_.vertex.region.end_offset >= model_.edge.region.end_offset
                                 ? model_.vertex : model_.edge;
    emitTraits(last.namespaces);  // right after the later graph type, in its namespace
  }
  copyUser(static_cast<unsigned>(source_.size()));
  const std::vector<SuperstepPlan> plans = planSupersteps(model_, options.edge_parallel);
  if (!plans.empty()) {
    out.toGenerated();
    for (const SuperstepPlan& plan : plans) out.append(planComment(plan));
    for (std::size_t i = 0; i < plans.size(); ++i)  // (one plan per model_.iterations entry)
      if (model_.iterations[i].plain_function) out.append(templates_.render("iteration_plan", planCode(plans[i])));
  }
  if (!model_.replayable_iterations.empty()) {
    out.toGenerated();
    out.append(replayableIterations());
  }
  if (!model_.schedules.empty()) {
    out.toGenerated();
    out.append(schedules());
  }
  if (!model_.aggregates.empty()) {
    out.toGenerated();
    std::vector<std::string> lines;
    for (size_t i = 0; i < model_.aggregates.size(); ++i)
      lines.push_back("static const bool medusa_aggregate_" + std::to_string(i) +
                      " = medusa::detail::register_aggregate<medusa_program>(" + model_.aggregates[i].qualified + ", " +
                      std::to_string(i) + ");");
    out.append(templates_.render("aggregate_registrations", {{"registrations", join(lines, "\n")}}));
  }
  return out.take();
}

}  // namespace medusa::cc
