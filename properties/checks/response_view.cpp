#include "properties/checks/response_view.h"

#include "kube/go/go_json_decode.h"

namespace convcheck {

namespace {

using nlohmann::json;

// The last value of `key` in the object at the cursor (duplicate keys: the last one wins), as
// text; the cursor is left after the object.
std::optional<std::string_view> lastMember(GoJsonCursor& cursor, std::string_view key) {
  std::optional<std::string_view> found;
  cursor.enterObject();
  std::string name;
  while (cursor.nextKey(name)) {
    std::string_view value = cursor.skipValue();
    if (name == key) found = value;
  }
  return found;
}

// A converted object's apiVersion, kind and metadata as Go's decoder reads them (duplicate keys:
// the last one wins), or all of it when it is not an object: what the per-answer properties read.
// The rest (spec, status) is skipped, not built: it is the verdict's visible objects that hold it.
// Read at the cursor, which is left after the object.
json readHead(GoJsonCursor& cursor) {
  if (cursor.peek() != GoJsonKind::Object) return goDecodeInterface(cursor.skipValue()).value;
  json head = json::object();
  cursor.enterObject();
  std::string key;
  while (cursor.nextKey(key)) {
    std::string_view value = cursor.skipValue();
    if (key == "apiVersion" || key == "kind" || key == "metadata")
      head[key] = goDecodeInterface(value).value;
  }
  return head;
}

// The members of a "response" value into `view`, read at the cursor, which is left after it.
void readResponse(GoJsonCursor& response, std::size_t keepObjects, ResponseView& view) {
  if (response.peek() != GoJsonKind::Object) {
    response.skipValue();
    return;
  }
  view.hasResponse = true;
  response.enterObject();
  std::string key;
  while (response.nextKey(key)) {
    const GoJsonKind kind = response.peek();
    if (key == "uid") {
      view.uid = kind == GoJsonKind::String ? std::optional(response.readString()) : std::nullopt;
      if (kind != GoJsonKind::String) response.skipValue();
    } else if (key == "result") {
      view.resultStatus.clear();
      std::string_view result = response.skipValue();
      GoJsonCursor cursor(result);
      if (kind != GoJsonKind::Object) continue;
      if (auto status = lastMember(cursor, "status")) {
        GoJsonCursor value(*status);
        if (value.peek() == GoJsonKind::String) view.resultStatus = value.readString();
      }
    } else if (key == "convertedObjects") {
      view.convertedHeads.clear();
      view.convertedCount = 0;
      if (kind != GoJsonKind::Array) {
        response.skipValue();
        continue;
      }
      response.enterArray();
      while (response.nextElement()) {
        if (view.convertedCount++ < keepObjects)
          view.convertedHeads.push_back(readHead(response));
        else
          response.skipValue();
      }
    } else {
      response.skipValue();
    }
  }
}

}  // namespace

ResponseView viewResponse(const HttpResult& http, std::size_t keepObjects, bool validJson) {
  ResponseView view;
  if (!http.ok() || http.status < 200 || http.status > 206) return view;
  // What Go's decoder accepts (including its 10000-level nesting limit); read without building
  // anything for the parts no property looks at.
  if ((!validJson || http.body.empty()) && goJsonSyntaxError(http.body)) return view;
  GoJsonCursor root(http.body);
  if (root.peek() != GoJsonKind::Object) return view;
  view.decoded = true;
  // One pass over the body: each "response" member is read as it comes, and the last one read is
  // the view (duplicate keys: the last one wins).
  root.enterObject();
  std::string key;
  while (root.nextKey(key)) {
    if (key != "response") {
      root.skipValue();
      continue;
    }
    ResponseView last;
    last.decoded = true;
    readResponse(root, keepObjects, last);
    view = std::move(last);
  }
  return view;
}

namespace {

std::string stringAt(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return "";
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return "";
  auto value = meta->find(key);
  return value != meta->end() && value->is_string() ? value->get<std::string>() : "";
}
}  // namespace

ObjectIdentity identityOf(const nlohmann::json& object) {
  return {stringAt(object, "namespace"), stringAt(object, "name"), stringAt(object, "uid")};
}

std::string describe(const ObjectIdentity& id) {
  std::string s = id.ns.empty() ? id.name : id.ns + "/" + id.name;
  return s + " (uid " + id.uid + ")";
}

}  // namespace convcheck
