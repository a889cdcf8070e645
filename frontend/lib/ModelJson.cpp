#include "medusa-cc/ModelJson.h"

#include "medusa-cc/SuperstepPlan.h"

#include <llvm/Support/JSON.h>

namespace medusa::cc {
namespace {

void writeRecord(llvm::json::OStream& j, const RecordInfo& record) {
  j.object([&] {
    j.attribute("name", record.name);
    j.attribute("line", record.line);
    j.attributeArray("fields", [&] {
      for (const FieldInfo& f : record.fields)
        j.object([&] {
          j.attribute("name", f.name);
          j.attribute("type", f.type);
          j.attribute("offset", static_cast<int64_t>(f.offset));
          j.attribute("line", f.line);
        });
    });
  });
}

void writeFieldUses(llvm::json::OStream& j, llvm::StringRef key,
                    const std::map<std::string, FieldUse>& uses) {
  j.attributeObject(key, [&] {
    for (const auto& [name, use] : uses)
      j.attributeObject(name, [&] {
        j.attribute("read", use.read);
        j.attribute("written", use.written);
      });
  });
}

}  // namespace

void writeModelJson(const ProgramModel& model, llvm::raw_ostream& out) {
  llvm::json::OStream j(out, 2);
  j.object([&] {
    j.attribute("source", model.source_path);
    j.attributeBegin("vertex");
    writeRecord(j, model.vertex);
    j.attributeEnd();
    j.attributeBegin("edge");
    writeRecord(j, model.edge);
    j.attributeEnd();
    j.attributeObject("message", [&] {
      j.attribute("type", model.message_type);
      j.attribute("arithmetic", model.message_is_arithmetic);
    });
    j.attributeArray("functors", [&] {
      for (const FunctorInfo& f : model.functors)
        j.object([&] {
          j.attribute("name", f.name);
          j.attribute("kind", apiKindName(f.kind));
          j.attributeArray("params", [&] {
            for (const ParamInfo& p : f.params)
              j.object([&] {
                j.attribute("role", paramRoleName(p.role));
                j.attribute("name", p.name);
              });
          });
          j.attribute("begin_line", f.region.begin_line);
          j.attribute("end_line", f.region.end_line);
          j.attribute("operator_line", f.operator_line);
          writeFieldUses(j, "vertex_fields", f.vertex_fields);
          writeFieldUses(j, "edge_fields", f.edge_fields);
          writeFieldUses(j, "head_fields", f.head_fields);
          j.attributeObject("uses", [&] {
            j.attribute("sendMsg", f.sends_messages);
            j.attribute("vertex_SetActive", f.sets_vertex_active);
            if (f.sets_vertex_priority) j.attribute("vertex_SetActive_priority", true);
            j.attribute("edge_SetActive", f.sets_edge_active);
            j.attribute("Continue", f.continue_vote);
            j.attribute("Halt", f.halt_vote);
            j.attribute("Superstep", f.uses_superstep);
            j.attribute("head", f.uses_head);
            j.attribute("combined_msg", f.reads_combined);
          });
          if (f.in_edges) j.attribute("in_edges", true);
          if (f.reads_neighbor_sets) j.attribute("neighbor_sets", true);
          if (f.reads_by_id || f.sends_by_id)  // (medusa/by_id.h)
            j.attributeObject("by_id", [&] {
              writeFieldUses(j, "read_fields", f.by_id_fields);
              j.attribute("sendMsgTo", f.sends_by_id);
            });
          if (!f.aggregates_added.empty() || !f.aggregates_read.empty())
            j.attributeObject("aggregates", [&] {
              j.attributeArray("add", [&] {
                for (int i : f.aggregates_added) j.value(model.aggregates[i].name);
              });
              j.attributeArray("value", [&] {
                for (int i : f.aggregates_read) j.value(model.aggregates[i].name);
              });
            });
          if (f.edge_loop)
            j.attributeObject("edge_loop", [&] {
              j.attribute("index", f.edge_loop->index_name);
              j.attribute("index_type", f.edge_loop->index_type);
              j.attribute("prologue_begin_line", f.edge_loop->prologue.begin_line);
              j.attribute("prologue_end_line", f.edge_loop->prologue.end_line);
              j.attribute("body_begin_line", f.edge_loop->body.begin_line);
              j.attribute("body_end_line", f.edge_loop->body.end_line);
            });
        });
    });
    if (!model.aggregates.empty())
      j.attributeArray("aggregates", [&] {
        for (const AggregateInfo& a : model.aggregates)
          j.object([&] {
            j.attribute("name", a.name);
            j.attribute("type", a.value_type);
            j.attribute("op", a.op);
            j.attribute("line", a.line);
          });
      });
    j.attributeArray("combiners", [&] {
      for (const CombinerInfo& c : model.combiners)
        j.object([&] {
          j.attribute("name", c.name);
          j.attribute("begin_line", c.region.begin_line);
          j.attribute("end_line", c.region.end_line);
        });
    });
    j.attributeArray("helpers", [&] {
      for (const HelperInfo& h : model.helpers)
        j.object([&] {
          j.attribute("name", h.name);
          j.attribute("line", h.line);
        });
    });
    j.attributeArray("runs", [&] {
      for (const RunCallInfo& r : model.runs)
        j.object([&] {
          j.attribute("functor", r.functor);
          j.attribute("kind", apiKindName(r.requested));
          j.attribute("domain", domainName(r.domain));
          j.attribute("iteration_function", r.iteration_function);
          j.attribute("line", r.line);
        });
    });
    j.attributeArray("iteration_functions", [&] {
      for (const std::string& name : model.iteration_functions) j.value(name);
    });
    j.attributeArray("replayable_iterations", [&] {
      for (const std::string& name : model.replayable_iterations) j.value(name);
    });
    j.attributeArray("superstep_plans", [&] {
      for (const SuperstepPlan& p : planSupersteps(model, /*edge_parallel=*/true))
        j.object([&] {
          j.attribute("function", p.function);
          if (!p.schedule.empty()) j.attribute("schedule", p.schedule);
          j.attributeArray("steps", [&] {
            for (const PlanStep& s : p.steps)
              j.object([&] {
                j.attribute("operations", s.operations);
                j.attribute("form", s.form);
                j.attribute("why", s.why);
              });
          });
          j.attribute("superstep_end", p.superstep_end);
          j.attribute("replay", p.replay);
          j.attributeArray("run_time", [&] {
            for (const std::string& r : p.run_time) j.value(r);
          });
        });
    });
    j.attributeArray("combiner_op_types", [&] {
      for (const std::string& name : model.combiner_op_types) j.value(name);
    });
    j.attribute("builtin_combiner", model.uses_builtin_combiner);
    const ProgramUsesInfo u = model.uses();
    j.attributeObject("program_uses", [&] {
      j.attribute("continue_vote", u.continue_vote);
      j.attribute("halt_vote", u.halt_vote);
      j.attribute("vertex_frontier", u.vertex_frontier);
      if (u.priorities) j.attribute("priorities", true);
      j.attribute("edge_frontier", u.edge_frontier);
      j.attribute("received", u.received);
      j.attribute("messages", u.messages);
      j.attribute("edge_reads_combined", u.edge_reads_combined);
      j.attribute("combiner_consumes_slots", u.combiner_consumes_slots);
      if (u.neighbor_sets) j.attribute("neighbor_sets", true);
      if (u.reads_by_id) j.attribute("reads_by_id", true);
      if (u.sends_by_id) j.attribute("sends_by_id", true);
      if (u.in_edges) j.attribute("in_edges", true);
    });
  });
  out << "\n";
}

}  // namespace medusa::cc
