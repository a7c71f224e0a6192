//===- ModelConfig.cpp - A model folder's config.pbtxt --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ModelConfig.h"

#include "ModelRepository.h"
#include "TextProto.h"

#include <algorithm>

namespace kiln::serve {

namespace {

rt::Status errorAt(const std::string &source, const TextProtoField &field,
                   const std::string &what) {
  return rt::invalidArgument(source + ":" + std::to_string(field.line) + ":" +
                             std::to_string(field.column) + ": " + what);
}

/// The one field named `name` of `message`, or null; an error when it is
/// there more than once.
rt::StatusOr<const TextProtoField *> single(const TextProtoField &message,
                                            const std::string &name,
                                            const std::string &source) {
  std::vector<const TextProtoField *> found = message.all(name);
  if (found.size() > 1)
    return errorAt(source, *found[1], "'" + name + "' is given twice");
  return found.empty() ? nullptr : found.front();
}

/// Only fields named in `known` may be in `message`.
rt::Status onlyFields(const TextProtoField &message,
                      std::initializer_list<const char *> known,
                      const std::string &where, const std::string &source) {
  for (const TextProtoField &field : message.fields)
    if (std::none_of(known.begin(), known.end(),
                     [&](const char *name) { return field.name == name; }))
      return errorAt(source, field,
                     "unknown field '" + field.name + "' in " + where);
  return rt::Status::ok();
}

/// A positive whole number (a version, a count) from a scalar field.
rt::StatusOr<int> positive(const TextProtoField &field,
                           const std::string &source) {
  int value = field.isMessage || field.quoted
                  ? 0
                  : ModelRepository::positiveNumber(field.scalar, 9);
  if (value == 0)
    return errorAt(source, field,
                   "'" + field.name + "' must be a positive whole number" +
                       (field.isMessage ? "" : ", not '" + field.scalar + "'"));
  return value;
}

rt::StatusOr<VersionPolicy> readPolicy(const TextProtoField &field,
                                       const std::string &source) {
  if (!field.isMessage)
    return errorAt(source, field,
                   "version_policy must be a message: { latest: "
                   "{ num_versions: N } }, { all: {} } or { specific: "
                   "{ versions: [V, ...] } }");
  KILN_RETURN_IF_ERROR(onlyFields(field, {"latest", "all", "specific"},
                                  "version_policy", source));
  if (field.fields.size() != 1)
    return errorAt(source, field,
                   "version_policy needs exactly one of latest, all and "
                   "specific");
  const TextProtoField &choice = field.fields.front();
  if (!choice.isMessage)
    return errorAt(source, choice, "'" + choice.name + "' must be a message");
  VersionPolicy policy;
  if (choice.name == "all") {
    KILN_RETURN_IF_ERROR(onlyFields(choice, {}, "all", source));
    policy.kind = VersionPolicy::Kind::kAll;
    return policy;
  }
  if (choice.name == "latest") {
    KILN_RETURN_IF_ERROR(
        onlyFields(choice, {"num_versions"}, "latest", source));
    rt::StatusOr<const TextProtoField *> count =
        single(choice, "num_versions", source);
    KILN_RETURN_IF_ERROR(count.status());
    if (!*count)
      return errorAt(source, choice, "latest needs num_versions");
    rt::StatusOr<int> latest = positive(**count, source);
    KILN_RETURN_IF_ERROR(latest.status());
    policy.latest = *latest;
    return policy;
  }
  KILN_RETURN_IF_ERROR(onlyFields(choice, {"versions"}, "specific", source));
  policy.kind = VersionPolicy::Kind::kSpecific;
  for (const TextProtoField *version : choice.all("versions")) {
    rt::StatusOr<int> number = positive(*version, source);
    KILN_RETURN_IF_ERROR(number.status());
    policy.specific.push_back(*number);
  }
  if (policy.specific.empty())
    return errorAt(source, choice, "specific needs at least one version");
  std::sort(policy.specific.begin(), policy.specific.end());
  policy.specific.erase(
      std::unique(policy.specific.begin(), policy.specific.end()),
      policy.specific.end());
  return policy;
}

} // namespace

rt::StatusOr<ModelConfig> parseModelConfig(const std::string &text,
                                           const std::string &model,
                                           const std::string &source) {
  rt::StatusOr<TextProtoField> root = parseTextProto(text, source);
  KILN_RETURN_IF_ERROR(root.status());
  ModelConfig config;
  rt::StatusOr<const TextProtoField *> name = single(*root, "name", source);
  KILN_RETURN_IF_ERROR(name.status());
  if (*name && ((*name)->isMessage || (*name)->scalar != model))
    return errorAt(source, **name,
                   "the configuration names model '" + (*name)->scalar +
                       "', but its folder is '" + model + "'");
  rt::StatusOr<const TextProtoField *> policy =
      single(*root, "version_policy", source);
  KILN_RETURN_IF_ERROR(policy.status());
  if (*policy) {
    rt::StatusOr<VersionPolicy> read = readPolicy(**policy, source);
    KILN_RETURN_IF_ERROR(read.status());
    config.versionPolicy = std::move(*read);
  }
  return config;
}

} // namespace kiln::serve
