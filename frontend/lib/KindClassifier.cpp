#include "medusa-cc/KindClassifier.h"

#include <clang/AST/DeclTemplate.h>

#include <algorithm>

namespace medusa::cc {
namespace {

bool sameType(clang::QualType a, clang::QualType b) {
  return a.getNonReferenceType().getCanonicalType().getUnqualifiedType() ==
         b.getNonReferenceType().getCanonicalType().getUnqualifiedType();
}

// The single template argument type of `record` when it specializes `name`.
std::optional<clang::QualType> listElement(const clang::CXXRecordDecl* record,
                                           llvm::StringRef name) {
  if (!isSpecializationOf(record, name)) return std::nullopt;
  const auto* spec = llvm::cast<clang::ClassTemplateSpecializationDecl>(record);
  const clang::TemplateArgumentList& args = spec->getTemplateArgs();
  if (args.size() != 1 || args[0].getKind() != clang::TemplateArgument::Type) return std::nullopt;
  return args[0].getAsType();
}

}  // namespace

std::optional<ParamRole> KindClassifier::roleOf(clang::QualType type) const {
  const clang::CXXRecordDecl* record = recordOf(type);
  if (record != nullptr) {
    record = record->getCanonicalDecl();
    if (types_.vertex && record == types_.vertex->getCanonicalDecl()) return ParamRole::Vertex;
    if (types_.edge && record == types_.edge->getCanonicalDecl()) return ParamRole::Edge;
    if (auto element = listElement(record, "medusa::EdgeList"))
      if (types_.edge && recordOf(*element) &&
          recordOf(*element)->getCanonicalDecl() == types_.edge->getCanonicalDecl())
        return ParamRole::EdgeList;
    if (auto element = listElement(record, "medusa::InEdgeList"))
      if (types_.edge && recordOf(*element) &&
          recordOf(*element)->getCanonicalDecl() == types_.edge->getCanonicalDecl())
        return ParamRole::InEdgeList;
    if (auto element = listElement(record, "medusa::MessageList"))
      if (!types_.message.isNull() && sameType(*element, types_.message))
        return ParamRole::MessageList;
  }
  if (!types_.message.isNull() && sameType(type, types_.message)) return ParamRole::Message;
  return std::nullopt;
}

std::optional<KindClassification> KindClassifier::classify(
    const clang::CXXMethodDecl& call_operator) const {
  KindClassification result{ApiKind::Vertex, {}};
  std::vector<ParamRole> roles;
  for (const clang::ParmVarDecl* param : call_operator.parameters()) {
    std::optional<ParamRole> role = roleOf(param->getType());
    if (!role) return std::nullopt;
    roles.push_back(*role);
    result.params.push_back({*role, param->getNameAsString()});
  }
  std::sort(roles.begin(), roles.end());
  using R = ParamRole;
  struct Shape {
    std::vector<ParamRole> roles;  // sorted
    ApiKind kind;
  };
  static const Shape kShapes[] = {
      {{R::Vertex, R::EdgeList}, ApiKind::Elist}, {{R::Vertex, R::InEdgeList}, ApiKind::Elist},
      {{R::Edge}, ApiKind::Edge},
      {{R::Vertex, R::MessageList}, ApiKind::Mlist}, {{R::Message}, ApiKind::Message},
      {{R::Vertex}, ApiKind::Vertex}};
  for (const Shape& shape : kShapes) {
    std::vector<ParamRole> expected = shape.roles;
    std::sort(expected.begin(), expected.end());
    if (expected == roles) {
      result.kind = shape.kind;
      return result;
    }
  }
  return std::nullopt;
}

bool KindClassifier::isCombinerOperator(const clang::CXXMethodDecl& call_operator) const {
  if (call_operator.getNumParams() != 2 || types_.message.isNull()) return false;
  return sameType(call_operator.getParamDecl(0)->getType(), types_.message) &&
         sameType(call_operator.getParamDecl(1)->getType(), types_.message) &&
         sameType(call_operator.getReturnType(), types_.message);
}

}  // namespace medusa::cc
