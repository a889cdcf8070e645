// Decides a functor's EMV API kind from its operator()'s parameter types (paper Table 1),
// ignoring cv-qualifiers and references, in either parameter order.
#pragma once

#include "medusa-cc/AstQueries.h"
#include "medusa-cc/ProgramModel.h"

#include <optional>
#include <vector>

namespace medusa::cc {

struct KindClassification {
  ApiKind kind;
  std::vector<ParamInfo> params;  // roles in declaration order
};

class KindClassifier {
 public:
  explicit KindClassifier(const GraphTypes& types) : types_(types) {}

  // The kind of an EMV functor's operator(), or nullopt when the parameters fit none.
  std::optional<KindClassification> classify(const clang::CXXMethodDecl& call_operator) const;
  // The role one parameter type plays, or nullopt when it is none of the graph types.
  std::optional<ParamRole> roleOf(clang::QualType type) const;
  // True for `M operator()(const M&, const M&) const`-like combiner operators.
  bool isCombinerOperator(const clang::CXXMethodDecl& call_operator) const;

 private:
  const GraphTypes& types_;
};

}  // namespace medusa::cc
