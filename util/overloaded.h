// Overloaded: one callable from several lambdas, for std::visit with one lambda per
// alternative of a variant: std::visit(Overloaded{[](const A&) {...}, [](const B&) {...}}, v).
#pragma once

namespace eboard {

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};

}  // namespace eboard
