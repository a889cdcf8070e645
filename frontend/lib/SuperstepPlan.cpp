#include "medusa-cc/SuperstepPlan.h"

#include <algorithm>
#include <map>
#include <optional>

namespace medusa::cc {
namespace {

using Op = PlanOp::Kind;

std::string spell(const PlanOp& op) {
  switch (op.kind) {
    case Op::InitMessageBuffer: return "InitMessageBuffer";
    case Op::Combiner: return "Combiner()";
    case Op::UserCombiner: return "Combiner(" + op.functor + ")";
    case Op::Run: break;
  }
  std::string s = std::string("EMV<") + apiKindName(op.run_kind) + ">::Run(" + op.functor;
  if (op.domain != DomainUse::All) s += std::string(", ") + domainName(op.domain);
  return s + ")";
}

// `step` as the runtime runs it: `form`, over the calls of `op` (its EMV<K>::Run, if any).
PlanStep runsAs(PlanStep step, StepForm form, const PlanOp& op) {
  step.runs_as = form;
  if (op.kind == Op::Run) {
    step.run_kind = op.run_kind;
    step.domain = op.domain;
  }
  return step;
}

// Whether conf.combinerOpType is set to one of `names` everywhere it is set (and set at all).
bool operatorIs(const ProgramModel& model, std::initializer_list<const char*> names) {
  if (model.combiner_op_types.empty()) return false;
  return std::all_of(model.combiner_op_types.begin(), model.combiner_op_types.end(), [&](const std::string& t) {
    return std::any_of(names.begin(), names.end(), [&](const char* n) { return t.find(n) != std::string::npos; });
  });
}

class Planner {
 public:
  Planner(const ProgramModel& model, bool edge_parallel) : model_(model), edge_parallel_(edge_parallel) {}

  SuperstepPlan plan(const IterationOps& it) const {
    SuperstepPlan p;
    p.function = it.function;
    const std::vector<PlanOp>& ops = it.ops;
    std::string gather_of;  // the ELIST functor of the pull gather just planned
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const bool fusable = i + 2 < ops.size() && ops[i].kind == Op::InitMessageBuffer &&
                           ops[i + 1].kind == Op::Run && ops[i + 2].kind == Op::Combiner;
      if (fusable && fuse(ops[i + 1], p)) {
        const FunctorInfo* pass = functor(ops[i + 1].functor);
        gather_of = ops[i + 1].run_kind == ApiKind::Elist && ops[i + 1].domain == DomainUse::All &&
                            !(pass != nullptr && pass->in_edges)
                        ? ops[i + 1].functor
                        : "";
        i += 2;
        continue;
      }
      const PlanOp& op = ops[i];
      if (op.kind == Op::Run && op.run_kind == ApiKind::Vertex && op.domain == DomainUse::All && !gather_of.empty()) {
        p.steps.push_back(joinedVertex(op, gather_of));
      } else {
        p.steps.push_back(plain(op));
      }
      gather_of.clear();
    }
    if (!it.straight_line)
      p.steps.push_back(runsAs({"(operations under branches or loops)", "issued as called",
                                "not every Medusa operation is a statement of " + it.function + "'s body"},
                               StepForm::AsCalled, {}));
    if (std::optional<PlanStep> fold = aggregateFold()) p.steps.push_back(*fold);
    p.superstep_end = superstepEnd();
    const auto& replayable_list = model_.replayable_iterations;  // spelled "::ns::F"
    const bool replayable = std::find(replayable_list.begin(), replayable_list.end(), "::" + it.function) !=
                            replayable_list.end();
    p.replay = replayable ? "replayable: a straight line of Medusa operations with constant arguments; batches "
                            "recorded as CUDA graphs are launched again without calling it"
                          : "not replayable: not proven a straight line of Medusa operations with constant arguments "
                            "(pass it to Run by name, with constant functor arguments)";
    if (!model_.aggregates.empty())
      p.replay = "not replayable: the program's aggregates are read back after every superstep";
    const ProgramUsesInfo uses = model_.uses();
    if (uses.reads_by_id || uses.sends_by_id)
      p.run_time.push_back("vertex order: the input's, since functors hold vertex ids (reads or sends by id; "
                           "partitions: a whole-graph mirror of the fields read by id, sends delivered to the owners)");
    else if (!uses.vertex_frontier && !uses.edge_frontier)
      p.run_time.push_back("vertex order: by degree when the graph is large and a few hubs hold a fifth of the "
                           "edge endpoints (one partition, and each partition's own vertices: no frontier, so "
                           "every superstep reads every vertex)");
    else
      p.run_time.push_back("vertex order: by degree when the graph is large and a few hubs hold a fifth of the "
                           "edge endpoints (one partition; partitions only when the seeds' out-edges are E/8 or "
                           "more: a frontier from a few seeds runs as a queue)");
    if (uses.vertex_frontier && model_.aggregates.empty() && !uses.sends_by_id)
      p.run_time.push_back("batches: sparse supersteps issued 16 at a time with one read-back, after 8 in a row");
    return p;
  }

 private:
  const FunctorInfo* functor(const std::string& name) const { return model_.functor(name); }
  bool edgeParallel(const FunctorInfo* f) const {
    return edge_parallel_ && f != nullptr && f->kind == ApiKind::Elist && f->edge_loop.has_value();
  }

  // InitMessageBuffer; a pass; Combiner(): one pass where the runtime can fuse them.
  bool fuse(const PlanOp& run, SuperstepPlan& p) const {
    const FunctorInfo* f = functor(run.functor);
    const std::string ops = "InitMessageBuffer + " + spell(run) + " + Combiner()";
    const std::string limits = "; with one partition, messagesPerEdge = 1 and an arithmetic message";
    if (f != nullptr && f->in_edges) {
      p.steps.push_back(runsAs(inEdgePull(ops, *f), StepForm::InEdgePull, run));
      return true;
    }
    if (!model_.message_is_arithmetic || model_.uses().sends_by_id) return false;  // (by_id.h: plain Combiner)
    const bool min_max = operatorIs(model_, {"MEDUSA_MIN", "MEDUSA_MAX"});
    if (run.run_kind == ApiKind::Edge && run.domain == DomainUse::All && model_.combiner_consumes_slots) {
      p.steps.push_back(runsAs({ops, min_max ? "push-combine" : "push-combine under MEDUSA_MIN / MEDUSA_MAX, else three passes",
                                "no message slot is read after its Combiner, so each edge folds its message into its "
                                "head's combined value" + limits},
                               StepForm::PushCombine, run));
      return true;
    }
    if (!edgeParallel(f) || run.domain == DomainUse::Received) return false;
    std::string why = run.functor + "'s edge loop has independent iterations";
    if (f->edge_loop->uniform_message) why += ", and its message depends only on its vertex: computed once per source";
    if (run.domain == DomainUse::All) {
      p.steps.push_back(runsAs({ops, "pull gather", why + limits}, StepForm::PullGather, run));
      return true;
    }
    p.steps.push_back(runsAs({ops, min_max ? "frontier: pulled when dense, else pushed into the combined values"
                                           : "frontier: pulled when dense, else pushed",
                              why + "; the direction is chosen per superstep (run time: E/8 frontier edges)" + limits},
                             StepForm::FrontierPass, run));
    return true;
  }

  PlanStep inEdgePull(const std::string& ops, const FunctorInfo& f) const {
    return {ops, "in-edge pull: each vertex runs the loop iteration of every out-edge's tail and folds what comes back",
            f.name + " takes an InEdgeList: its messages go against the edges' direction and exist only as this "
                     "fold (the built-in Combiner; on k partitions each owns its vertices' whole out-rows)"};
  }

  // The global aggregates some functor adds to: folded inside the launches that add, read after the superstep.
  std::optional<PlanStep> aggregateFold() const {
    std::vector<std::string> names, adders;
    for (const AggregateInfo& a : model_.aggregates) names.push_back(a.name);
    for (const FunctorInfo& f : model_.functors)
      if (!f.aggregates_added.empty()) adders.push_back(f.name);
    if (adders.empty()) return std::nullopt;
    auto list = [](const std::vector<std::string>& items) {
      std::string out;
      for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
      return out;
    };
    return runsAs({"fold aggregates " + list(names),
                   "inside the launches that add (on CUDA one atomic per block and aggregate); partitions folded in order; "
                   "read back and published for the next superstep",
                   list(adders) + (adders.size() == 1 ? " calls" : " call") +
                       " add(); value() reads the previous superstep's fold"},
                  StepForm::AggregateFold, {});
  }

  PlanStep joinedVertex(const PlanOp& op, const std::string& pass) const {
    const FunctorInfo* f = functor(op.functor);
    std::string why = "a VERTEX launch over every vertex right after the pull gather of " + pass;
    if (f != nullptr && f->next_source_functor == pass)
      why += "; it also computes the next superstep's messages of " + pass +
             " where they depend only on the vertex (graphs of at most 8 edges per vertex: run time)";
    return runsAs({spell(op), "joined to the gather before it (CUDA)", why}, StepForm::JoinedVertex, op);
  }

  // No sendMsg, only sendMsgTo: runtime's common::defers_slot_fill.
  bool sendsOnlyById() const {
    const ProgramUsesInfo uses = model_.uses();
    return uses.sends_by_id && !uses.messages;
  }

  PlanStep plain(const PlanOp& op) const {
    const StepForm form = op.kind == Op::InitMessageBuffer ? StepForm::Fill
                          : op.kind == Op::Combiner        ? StepForm::Combine
                          : op.kind == Op::UserCombiner    ? StepForm::CombineWith
                          : op.run_kind == ApiKind::Vertex && op.domain == DomainUse::Received ? StepForm::ReceiverVertex
                                                                                             : StepForm::Launch;
    return runsAs(plainStep(op), form, op);
  }
  PlanStep plainStep(const PlanOp& op) const {
    switch (op.kind) {
      case Op::InitMessageBuffer:
        if (sendsOnlyById())
          return {spell(op), "reset each vertex's sends by id; the slots are filled only where read",
                  "the program sends only by id: no launch writes a slot (an MLIST or MESSAGE functor, or a "
                  "Combiner under another operator than min, max, bitwise or / and, reads the fill)"};
        return {spell(op), "fill every message slot", "no fusable pass follows it"};
      case Op::Combiner:
        if (sendsOnlyById())
          return {spell(op), "each vertex's sends by id (under min, max, bitwise or / and; other operators fold the slots too)",
                  "the program sends only by id: its slots hold the fill value, which those operators ignore"};
        if (model_.uses().sends_by_id)
          return {spell(op), "segmented reduction binned by degree, then each vertex's sends by id",
                  "the built-in operator folds each vertex's slots and what was sent to it with sendMsgTo; "
                  "the launches before it are not fused with it"};
        return {spell(op), "segmented reduction binned by degree", "the built-in operator folds each vertex's slots"};
      case Op::UserCombiner: return {spell(op), "segmented reduction", "a user-defined operator"};
      case Op::Run: break;
    }
    const FunctorInfo* f = functor(op.functor);
    if (f != nullptr && f->in_edges) return inEdgePull(spell(op), *f);
    if (op.run_kind == ApiKind::Elist)
      return {spell(op), edgeParallel(f) ? "edge-parallel launch" : "one thread per vertex",
              edgeParallel(f) ? op.functor + "'s edge loop has independent iterations"
                              : op.functor + "'s edge loop was not proven independent: column-major edges may serve it"};
    if (op.run_kind == ApiKind::Vertex && op.domain == DomainUse::Received)
      return {spell(op), "over the receivers; in the superstep's end when batched (CUDA)",
              "the receivers of the pushes before it are queued"};
    return {spell(op), "launch", std::string("one thread per ") + (op.run_kind == ApiKind::Edge ? "edge" : "element")};
  }

  std::string superstepEnd() const {
    ProgramUsesInfo u = model_.uses();
    u.halt_vote |= model_.iteration_halts;
    std::string votes = u.continue_vote && u.halt_vote ? "Continue() and Halt() votes"
                        : u.continue_vote            ? "Continue() votes"
                        : u.halt_vote                ? "Halt() votes"
                                                     : "no votes (maxIteration stops it)";
    std::string frontier = u.vertex_frontier && u.edge_frontier ? "vertex and edge frontiers"
                           : u.vertex_frontier                 ? "a vertex frontier"
                           : u.edge_frontier                   ? "an edge frontier"
                                                               : "no frontier";
    if (!model_.aggregates.empty())
      return votes + "; " + frontier + "; aggregates; read back after every superstep (no batches)";
    if (u.sends_by_id) return votes + "; " + frontier + "; sends by id; read back after every superstep (no batches)";
    return votes + "; " + frontier + "; read back after each superstep, or once per batch";
  }

  const ProgramModel& model_;
  bool edge_parallel_;
};

}  // namespace

std::vector<SuperstepPlan> planSupersteps(const ProgramModel& model, bool edge_parallel,
                                          std::vector<std::pair<std::string, ScheduleIssue>>* issues) {
  std::vector<SuperstepPlan> plans;
  const Planner planner(model, edge_parallel);
  for (const IterationOps& it : model.iterations) plans.push_back(planner.plan(it));
  for (const ScheduleInfo& schedule : model.schedules)
    for (SuperstepPlan& plan : plans)
      if (plan.function == schedule.function)
        for (ScheduleIssue& issue : foldSchedule(plan, schedule, model))
          if (issues != nullptr) issues->emplace_back(schedule.function, std::move(issue));
  return plans;
}

const char* stepFormName(StepForm form) {
  switch (form) {
    case StepForm::Fill: return "Fill";
    case StepForm::Launch: return "Launch";
    case StepForm::Combine: return "Combine";
    case StepForm::CombineWith: return "CombineWith";
    case StepForm::PullGather: return "PullGather";
    case StepForm::FrontierPass: return "FrontierPass";
    case StepForm::PushCombine: return "PushCombine";
    case StepForm::Unfused: return "Unfused";
    case StepForm::InEdgePull: return "InEdgePull";
    case StepForm::JoinedVertex: return "JoinedVertex";
    case StepForm::ReceiverVertex: return "ReceiverVertex";
    case StepForm::AsCalled: return "AsCalled";
    case StepForm::AggregateFold: return "AggregateFold";
  }
  return "Launch";
}

std::string planComment(const SuperstepPlan& plan) {
  std::string out = "// ---- medusa-cc: superstep plan of " + plan.function + " (docs/design/superstep-plan.md) ----\n";
  int n = 1;
  for (const PlanStep& s : plan.steps) {
    out += "//  " + std::to_string(n++) + ". " + s.operations + ": " + s.form + "\n";
    out += "//       why: " + s.why + "\n";
  }
  if (!plan.schedule.empty()) out += "//  schedule: " + plan.schedule + "\n";
  out += "//  end: " + plan.superstep_end + "\n";
  out += "//  " + plan.replay + "\n";
  for (const std::string& r : plan.run_time) out += "//  run time: " + r + "\n";
  return out;
}

std::map<std::string, std::string> planCode(const SuperstepPlan& plan) {
  std::string name;
  for (char c : plan.function) name += c == ':' ? '_' : c;  // ("ns::F" -> ns__F)
  const auto over = [](DomainUse d) {
    switch (d) {
      case DomainUse::All: return "All";
      case DomainUse::Active: return "Active";
      case DomainUse::Received: return "Received";
      case DomainUse::Dynamic: break;
    }
    return "Any";
  };
  std::string steps;  // (one line each: the template indents them)
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    const PlanStep& s = plan.steps[i];
    steps += std::string(i ? "\n" : "") + "{medusa::plan::Form::" + stepFormName(s.runs_as) + ", medusa::" +
             apiKindName(s.run_kind) + ", medusa::plan::Over::" + over(s.domain) + "},  // " + std::to_string(i + 1) +
             ". " + s.form;
  }
  return {{"function", plan.function},
          {"name", name},
          {"steps", steps},
          {"count", std::to_string(plan.steps.size())}};
}

}  // namespace medusa::cc
