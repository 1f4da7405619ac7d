// ProposalBook: the game's decisions for the arbiter, one voice per matter.
#include "engine/arbiter/proposal_book.h"

#include <algorithm>

namespace eboard::engine {
namespace {

// A claim decides the result when upholding it ends or annuls the game (D1, D8, D12);
// an incorrect one only costs the claimant time.
bool claim_decides_result(const GameEvent& event) {
  const auto* decided = event.get<events::ClaimDecided>();
  if (!decided || !decided->accepted) return false;
  switch (decided->kind) {
    case ClaimKind::kThreefold:
    case ClaimKind::kFifty:
    case ClaimKind::kQpf:
    case ClaimKind::kFlag:
    case ClaimKind::kSetup:
    case ClaimKind::kOrientation:
    case ClaimKind::kClockSetting: return true;
    default: return false;
  }
}

const char* reason_words(WithdrawReason reason) {
  switch (reason) {
    case WithdrawReason::kLapsed: return "it lapsed";
    case WithdrawReason::kSuperseded: return "superseded";
    case WithdrawReason::kGameEnded: return "the game ended";
  }
  return "";
}

}  // namespace

Matter Proposal::matter() const {
  switch (kind) {
    case Kind::kGameEnd: return Matter::kResult;
    case Kind::kClaim: return claim_decides_result(decided) ? Matter::kResult : Matter::kOwn;
    case Kind::kTimePenalty: return Matter::kOwn;
  }
  return Matter::kOwn;
}

std::uint64_t Proposal::seq() const {
  if (seqs.empty()) return 0;
  return kind == Kind::kGameEnd ? seqs.back() : seqs.front();
}

bool Proposal::same_as(const Proposal& other) const {
  return kind == Kind::kGameEnd && other.kind == Kind::kGameEnd && result == other.result &&
         termination == other.termination;
}

ProposalBook::Opened ProposalBook::open(Proposal p, EventVisibility visibility, Millis now) {
  for (std::uint32_t h = 1; h <= proposals_.size(); ++h)
    if (proposals_[h - 1].open() && proposals_[h - 1].same_as(p)) return {h, false};
  p.at = now;
  p.visibility = visibility;
  p.state = ProposalState::kOpen;
  proposals_.push_back(std::move(p));
  const auto handle = std::uint32_t(proposals_.size());
  if (proposals_.back().matter() != Matter::kResult) return {handle, true};
  for (std::uint32_t h = 1; h < handle; ++h) {
    Proposal& q = proposals_[h - 1];
    if (!q.open() || q.matter() != Matter::kResult) continue;
    withdraw(h, WithdrawReason::kSuperseded, "a newer proposal on the game's result replaces it",
             now);
    q.superseded_by = handle;
  }
  return {handle, true};
}

Proposal* ProposalBook::get(std::uint32_t handle) {
  return handle == 0 || handle > proposals_.size() ? nullptr : &proposals_[handle - 1];
}

const Proposal* ProposalBook::get(std::uint32_t handle) const {
  return handle == 0 || handle > proposals_.size() ? nullptr : &proposals_[handle - 1];
}

const Proposal* ProposalBook::named(std::uint64_t seq) const {
  for (const Proposal& p : proposals_)
    if (std::find(p.seqs.begin(), p.seqs.end(), seq) != p.seqs.end()) return &p;
  return nullptr;
}

// A seq that names no open proposal (settled, withdrawn, not a proposal) settles nothing:
// ruling on another decision instead would be wrong.
std::uint32_t ProposalBook::for_ruling(std::optional<std::uint64_t> seq) const {
  for (auto h = std::uint32_t(proposals_.size()); h > 0; --h) {
    const Proposal& p = proposals_[h - 1];
    if (!p.open()) continue;
    if (!seq || std::find(p.seqs.begin(), p.seqs.end(), *seq) != p.seqs.end()) return h;
  }
  return 0;
}

void ProposalBook::settle(std::uint32_t handle, RulingDecision decision) {
  if (Proposal* p = get(handle); p && p->open())
    p->state =
        decision == RulingDecision::kAccept ? ProposalState::kAccepted : ProposalState::kRejected;
}

void ProposalBook::withdraw(std::uint32_t handle, WithdrawReason reason, std::string why,
                            Millis now) {
  Proposal* p = get(handle);
  if (!p || !p->open()) return;
  p->state = ProposalState::kWithdrawn;
  p->withdrawn = reason;
  p->withdrawn_why = std::move(why);
  p->withdrawn_at = now;
  withdrawn_.push_back(handle);
}

void ProposalBook::withdraw_all(WithdrawReason reason, const std::string& why, Millis now) {
  for (std::uint32_t h = 1; h <= proposals_.size(); ++h) withdraw(h, reason, why, now);
}

void ProposalBook::published(std::uint32_t handle, std::uint64_t seq) {
  if (Proposal* p = get(handle)) p->seqs.push_back(seq);
}

std::vector<std::pair<std::uint32_t, const Proposal*>> ProposalBook::open_proposals() const {
  std::vector<std::pair<std::uint32_t, const Proposal*>> open;
  for (std::uint32_t h = 1; h <= proposals_.size(); ++h)
    if (proposals_[h - 1].open()) open.emplace_back(h, &proposals_[h - 1]);
  return open;
}

std::vector<Withdrawal> ProposalBook::take_withdrawals() {
  std::vector<Withdrawal> out;
  for (const std::uint32_t h : withdrawn_) {
    const Proposal& p = proposals_[h - 1];
    Withdrawal w;
    w.handle = h;
    w.seq = p.seq();
    w.seqs = p.seqs;
    if (const Proposal* by = get(p.superseded_by)) w.superseded_by = by->seq();
    w.reason = p.withdrawn;
    w.description = p.withdrawn_why;
    w.at = p.withdrawn_at;
    w.visibility = p.visibility;
    out.push_back(std::move(w));
  }
  withdrawn_.clear();
  return out;
}

void ProposalBook::clear() {
  proposals_.clear();
  withdrawn_.clear();
}

std::string closed_reason(const ProposalBook& book, const Proposal& p) {
  switch (p.state) {
    case ProposalState::kOpen: return "open";
    case ProposalState::kAccepted: return "already settled (accepted)";
    case ProposalState::kRejected: return "already settled (rejected)";
    case ProposalState::kWithdrawn: break;
  }
  std::string text = std::string("withdrawn (") + reason_words(p.withdrawn);
  if (const Proposal* by = book.get(p.superseded_by); by && by->seq() != 0)
    text += " by seq " + std::to_string(by->seq());
  if (!p.withdrawn_why.empty()) text += ": " + p.withdrawn_why;
  return text + ")";
}

}  // namespace eboard::engine
