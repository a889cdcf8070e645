// Stage 2 (the part a compiler buys over a template library): which vertex, edge and head-vertex
// fields a functor reads and writes, and which Medusa built-ins it uses (sendMsg, SetActive,
// Continue, Halt, Superstep, head()). Only the fields found here travel to the device.
#pragma once

#include "medusa-cc/AstQueries.h"
#include "medusa-cc/ProgramModel.h"

#include <clang/AST/ASTContext.h>

#include <vector>

namespace medusa::cc {

// ById: a vertex read through vertex_at(element, id) (medusa/by_id.h).
enum class FieldOwner { Vertex, Edge, HeadVertex, ById };

struct FieldAccess {
  FieldOwner owner;
  const clang::FieldDecl* field;
  bool read = false;
  bool written = false;
  bool unconditional = false;  // a top-level statement of operator()
  clang::SourceLocation location;
};

// A read or send by vertex id: vertex_at(element, id) or x.sendMsgTo(id, msg).
struct ByIdCall {
  const clang::CallExpr* call;
  bool send;
  const clang::Expr* id;       // the id argument, before its conversion to VertexId
  const clang::Expr* element;  // vertex_at's first argument (null for a send)
  std::string view_method;     // a medusa method called on a vertex read by id (id and element null)
};

class FieldAccessAnalysis {
 public:
  FieldAccessAnalysis(clang::ASTContext& context, const GraphTypes& types)
      : context_(context), types_(types) {}

  // Analyses `call_operator` and the user functions it reaches; fills the field and built-in
  // parts of `info` and returns every field access found.
  std::vector<FieldAccess> analyze(const clang::CXXMethodDecl& call_operator,
                                   const std::vector<const clang::FunctionDecl*>& reachable,
                                   FunctorInfo& info);

  // How an lvalue expression is used by its parents: read, written or both.
  struct Use {
    bool read = false;
    bool written = false;
    bool partial = false;  // through an element or member (v.hist[i], v.pos.x): not the whole field
  };
  Use classifyUse(const clang::Expr& expr);
  // The reads and sends by id of the last analyze().
  const std::vector<ByIdCall>& byIdCalls() const { return by_id_calls_; }
  void recordByIdCall(const ByIdCall& call) { by_id_calls_.push_back(call); }

 private:
  Use classifyParents(const clang::Expr& expr, bool& partial);

 public:

 private:
  clang::ASTContext& context_;
  const GraphTypes& types_;
  std::vector<ByIdCall> by_id_calls_;
};

}  // namespace medusa::cc
