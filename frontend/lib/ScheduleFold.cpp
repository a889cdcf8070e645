#include "medusa-cc/ScheduleFold.h"

#include <algorithm>
#include <functional>

namespace medusa::cc {
namespace {

// The values of medusa::Toggle, FrontierPull and SuperstepBatching (ScheduleAnalysis checks them).
constexpr int kOn = 1, kOff = 2;
constexpr int kPull = 1, kPush = 2;
constexpr int kBatchAlways = 1, kBatchOff = 2;

struct SettingName {
  int ScheduleInfo::*field;
  int value;
  const char* name;
};
constexpr SettingName kSettings[] = {
    {&ScheduleInfo::frontier_pull, kPull, "pull()"},
    {&ScheduleInfo::frontier_pull, kPush, "push()"},
    {&ScheduleInfo::gather_fusion, kOff, "no_gather_fusion()"},
    {&ScheduleInfo::push_combine, kOn, "push_combine()"},
    {&ScheduleInfo::push_combine, kOff, "no_push_combine()"},
    {&ScheduleInfo::vertex_fusion, kOn, "vertex_fusion()"},
    {&ScheduleInfo::vertex_fusion, kOff, "no_vertex_fusion()"},
    {&ScheduleInfo::source_prefetch, kOn, "source_prefetch()"},
    {&ScheduleInfo::source_prefetch, kOff, "no_source_prefetch()"},
    {&ScheduleInfo::superstep_batch, kBatchAlways, "batching()"},
    {&ScheduleInfo::superstep_batch, kBatchOff, "no_batching()"},
    {&ScheduleInfo::end_fusion, kOff, "no_end_fusion()"},
};

bool startsWith(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// The step forms come from SuperstepPlan.cpp (planSupersteps); the fold recognizes them by name.
const char* const kPullGather = "pull gather";
const char* const kFrontier = "frontier:";
const char* const kPushCombine = "push-combine";
const char* const kPushCombineProven = "push-combine";  // (the whole form: MEDUSA_MIN / MEDUSA_MAX proven)
const char* const kJoinedVertex = "joined to the gather before it";
const char* const kReceiversAtEnd = "over the receivers; in the superstep's end";
const char* const kPrefetchWhy = "next superstep's messages";

class Folder {
 public:
  Folder(SuperstepPlan& plan, const ScheduleInfo& schedule, const ProgramModel& model)
      : plan_(plan), s_(schedule), model_(model) {}

  std::vector<ScheduleIssue> run() {
    plan_.schedule = "set in the source (" + s_.where + "): " + scheduleSettings(s_);
    gatherFusion();
    frontier();
    pushCombine();
    vertexFusion();
    sourcePrefetch();
    endFusion();
    batching();
    return std::move(issues_);
  }

 private:
  std::string set(const char* setting) const { return "set in the source (" + s_.where + "): " + setting; }
  void error(std::string message) { issues_.push_back({true, std::move(message)}); }
  void warn(std::string message) { issues_.push_back({false, std::move(message)}); }
  // Calls f on every step whose form starts with `form`; how many there were.
  int each(const std::string& form, const std::function<void(PlanStep&)>& f) {
    int n = 0;
    for (PlanStep& step : plan_.steps)
      if (startsWith(step.form, form)) f(step), ++n;
    return n;
  }
  bool runsOverFrontier() const {
    for (const IterationOps& it : model_.iterations)
      if (it.function == plan_.function)
        for (const PlanOp& op : it.ops)
          if (op.kind == PlanOp::Kind::Run && op.domain == DomainUse::Active) return true;
    return false;
  }
  void setBatches(const std::string& line) {
    auto& r = plan_.run_time;
    const auto is_batches = [](const std::string& x) { return startsWith(x, "batches:"); };
    r.erase(std::remove_if(r.begin(), r.end(), is_batches), r.end());
    r.push_back("batches: " + line);
  }

  void gatherFusion() {
    if (s_.gather_fusion != kOff) return;
    const std::string why = set("no_gather_fusion()");
    const auto unfused = [&](PlanStep& st) {
      st.form = "three launches: fill, the pass, Combiner()";
      st.why = why;
      st.runs_as = StepForm::Unfused;
    };
    int n = each(kPullGather, unfused);
    n += each(kFrontier, [&](PlanStep& st) {
      st.form = "three launches: fill, the pass pushed over the frontier's out-edges, Combiner()";
      st.why = why;
      st.runs_as = StepForm::Unfused;
    });
    n += each(kPushCombine, unfused);
    each(kJoinedVertex, [&](PlanStep& st) {
      st.form = "launch";
      st.why = why + " leaves no gather to join";
      st.runs_as = StepForm::Launch;
    });
    if (n == 0)
      warn("no_gather_fusion() changes nothing: no InitMessageBuffer + pass + Combiner() of it runs as one pass");
    if (s_.frontier_pull == kPull)
      error("pull() pulls the pass over the frontier as one pass with its Combiner(), which no_gather_fusion() "
            "switches off; keep one of them");
    if (s_.push_combine == kOn) error("push_combine() and no_gather_fusion() contradict each other; keep one of them");
    if (s_.vertex_fusion == kOn)
      error("vertex_fusion() joins a VERTEX launch to a pull gather, which no_gather_fusion() switches off; keep one "
            "of them");
    if (s_.source_prefetch == kOn)
      error("source_prefetch() computes messages in a VERTEX step joined to a pull gather, which no_gather_fusion() "
            "switches off; keep one of them");
  }

  void frontier() {
    if (s_.frontier_pull == 0 || (s_.frontier_pull == kPull && s_.gather_fusion == kOff)) return;
    const bool pull = s_.frontier_pull == kPull;
    const int n = s_.gather_fusion == kOff ? 0 : each(kFrontier, [&](PlanStep& st) {
      const bool into_combined = st.form.find("into the combined values") != std::string::npos;
      st.form = pull ? "frontier: pulled over every in-edge in every superstep"
                     : std::string("frontier: pushed over the frontier's out-edges in every superstep") +
                           (into_combined ? ", into the combined values" : "");
      st.why = set(pull ? "pull()" : "push()");
    });
    if (n != 0) {
      if (pull) setBatches("none: pulls are forced, and batches push every frontier; " + set("pull()"));
      return;
    }
    if (pull)
      error("pull() needs a pass over the frontier that runs as one pass with its InitMessageBuffer and Combiner() "
            "(InitMessageBuffer; EMV<ELIST>::Run(F, Active) with an independent edge loop; Combiner(); an "
            "arithmetic message), and there is none; remove pull()");
    else if (!runsOverFrontier())
      error("push() forces the direction of passes over the frontier (Domain::Active), and there is none; remove "
            "push()");
    else if (s_.gather_fusion != kOff)
      warn("push() changes nothing: every pass over the frontier is pushed already");
  }

  void pushCombine() {
    if (s_.push_combine == 0 || s_.gather_fusion == kOff) return;
    if (s_.push_combine == kOff) {
      if (each(kPushCombine, [&](PlanStep& st) {
            st.form = "three launches: fill, the pass, Combiner()";
            st.why = set("no_push_combine()");
            st.runs_as = StepForm::Unfused;
          }) == 0)
        warn("no_push_combine() changes nothing: no InitMessageBuffer + EMV<EDGE>::Run + Combiner() of it is pushed");
      return;
    }
    bool proven = false;
    const int n = each(kPushCombine, [&](PlanStep& st) {
      proven = proven || st.form == kPushCombineProven;
      st.why = set("push_combine()") + "; " + st.why;
    });
    if (n == 0)
      error("push_combine() needs InitMessageBuffer; EMV<EDGE>::Run(F) over every edge; Combiner(), with no message "
            "slot read after the Combiner, and there is none; remove push_combine()");
    else if (!proven)
      error("push_combine() cannot push under this program's Combiner(): only MEDUSA_MIN and MEDUSA_MAX fold each "
            "edge's message straight into its head's combined value; set conf.combinerOpType to one of them or "
            "remove push_combine()");
  }

  void vertexFusion() {
    if (s_.vertex_fusion == 0 || s_.gather_fusion == kOff) return;
    const bool off = s_.vertex_fusion == kOff;
    const int n = each(kJoinedVertex, [&](PlanStep& st) {
      if (off) st.form = "launch", st.runs_as = StepForm::Launch;
      st.why = off ? set("no_vertex_fusion()") : set("vertex_fusion()") + "; " + st.why;
    });
    if (n == 0 && off) warn("no_vertex_fusion() changes nothing: no VERTEX launch of it joins a pull gather");
    if (n == 0 && !off)
      error("vertex_fusion() needs an EMV<VERTEX>::Run over every vertex right after a pull gather, and there is "
            "none; remove vertex_fusion()");
    if (off && s_.source_prefetch == kOn)
      error("source_prefetch() computes messages in the VERTEX step joined to the gather, which no_vertex_fusion() "
            "switches off; keep one of them");
  }

  void sourcePrefetch() {
    if (s_.source_prefetch == 0 || s_.gather_fusion == kOff) return;
    const bool off = s_.source_prefetch == kOff;
    if (s_.vertex_fusion == kOff) {  // (source_prefetch() with it: reported by vertexFusion)
      if (off)
        warn("no_source_prefetch() changes nothing: no_vertex_fusion() leaves no VERTEX step joined to the gather, "
             "where the next superstep's messages would be computed");
      return;
    }
    int n = 0;
    for (PlanStep& st : plan_.steps) {
      if (st.why.find(kPrefetchWhy) == std::string::npos) continue;
      ++n;
      if (off) st.why = st.why.substr(0, st.why.find("; it also computes")) + "; the next superstep's messages are not "
                        "computed here: " + set("no_source_prefetch()");
      else st.why += "; on every graph: " + set("source_prefetch()");
    }
    if (n == 0 && off) warn("no_source_prefetch() changes nothing: no VERTEX step of it computes the next messages");
    if (n == 0 && !off)
      error("source_prefetch() needs a VERTEX step joined to a pull gather whose next messages depend only on the "
            "vertex, and there is none; remove source_prefetch()");
  }

  void endFusion() {
    if (s_.end_fusion != kOff) return;
    if (each(kReceiversAtEnd, [&](PlanStep& st) {
          st.form = "over the receivers";
          st.why = set("no_end_fusion()");
          st.runs_as = StepForm::Launch;
        }) == 0)
      warn("no_end_fusion() changes nothing: no EMV<VERTEX>::Run over Domain::Received of it ends a superstep");
  }

  void batching() {
    if (s_.superstep_batch == kBatchOff) {
      setBatches("none: " + set("no_batching()"));
      if (s_.end_fusion != kOff)
        each(kReceiversAtEnd, [&](PlanStep& st) {
          st.form = "over the receivers";
          st.why = set("no_batching()") + ": no batched superstep's end to run in";
          st.runs_as = StepForm::Launch;
        });
    } else if (s_.superstep_batch == kBatchAlways) {
      if (model_.uses().edge_frontier)
        error("batching() cannot batch a program with an edge frontier (EdgeBase::SetActive): a batch carries only "
              "a vertex frontier; remove batching()");
      else if (s_.frontier_pull == kPull)
        error("batching() and pull() contradict each other: batches push every frontier; keep one of them");
      else
        setBatches("every superstep that can be, from the second: " + set("batching()"));
    }
  }

  SuperstepPlan& plan_;
  const ScheduleInfo& s_;
  const ProgramModel& model_;
  std::vector<ScheduleIssue> issues_;
};

}  // namespace

std::string scheduleSettings(const ScheduleInfo& schedule) {
  std::string out;
  for (const SettingName& s : kSettings)
    if (schedule.*s.field == s.value) out += (out.empty() ? "" : ", ") + std::string(s.name);
  return out.empty() ? "(no setting)" : out;
}

std::string scheduleExpression(const ScheduleInfo& schedule) {
  std::string out = "medusa::Schedule{}";
  for (const SettingName& s : kSettings)
    if (schedule.*s.field == s.value) out += std::string(".") + s.name;
  return out;
}

std::vector<ScheduleIssue> foldSchedule(SuperstepPlan& plan, const ScheduleInfo& schedule, const ProgramModel& model) {
  return Folder(plan, schedule, model).run();
}

}  // namespace medusa::cc
