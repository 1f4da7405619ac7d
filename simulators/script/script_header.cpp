#include "simulators/script/script_header.h"

namespace eboard::script {

void Header::add(const Body& body) {
  if (const auto* b = std::get_if<BoardId>(&body)) board_id = b->id;
  if (const auto* r = std::get_if<RulesName>(&body)) rules = r->name;
  if (const auto* c = std::get_if<TimeControl>(&body)) clock = c->text;
  if (const auto* s = std::get_if<Start>(&body)) start = s->fen;
  if (const auto* t = std::get_if<Tag>(&body)) tags.emplace_back(t->name, t->value);
  if (const auto* p = std::get_if<Param>(&body)) params.emplace_back(p->name, p->value);
}

Header header_of(const ScriptFile& file) {
  Header header;
  for (const Statement& s : file.statements) {
    if (s.at) break;  // the reader keeps header lines before timed ones
    header.add(s.body);
  }
  return header;
}

}  // namespace eboard::script
