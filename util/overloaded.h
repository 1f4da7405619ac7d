// Overloaded: one callable from several lambdas, for std::visit with one lambda per
// alternative of a variant: std::visit(Overloaded{[](const A&) {...}, [](const B&) {...}}, v).
#pragma once

namespace eboard {

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
// Written out: clang before 17 does not deduce an aggregate's template arguments (P1816).
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

}  // namespace eboard
