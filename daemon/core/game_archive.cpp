#include "daemon/core/game_archive.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "engine/board/fen.h"
#include "engine/board/notation.h"
#include "engine/game/pgn.h"

namespace eboard::daemon {

Result<std::string> snapshot_pgn(const eboard::v1::Snapshot& s) {
  engine::PgnGame game;
  auto start = engine::parse_fen(s.start_fen().empty() ? engine::kStartFen : s.start_fen());
  if (!start) return Error{"start fen: " + start.error()};
  game.start = start.value();
  engine::Position pos = game.start;
  std::vector<std::optional<std::chrono::milliseconds>> clocks;
  for (const auto& record : s.moves()) {
    auto move = engine::parse_uci(pos, record.uci());
    if (!move) return Error{"move " + record.uci() + ": " + move.error()};
    pos.make(move.value());
    game.moves.push_back(move.value());
    game.comments.emplace_back();
    clocks.emplace_back(std::chrono::milliseconds(record.clock_ms()));
  }
  game.result = s.result().empty() ? "*" : s.result();
  bool has_result = false;
  for (const auto& tag : s.tags()) {
    game.tags.emplace_back(tag.name(), tag.name() == "Result" ? game.result : tag.value());
    has_result = has_result || tag.name() == "Result";
  }
  if (!has_result) game.tags.emplace_back("Result", game.result);
  game.tags.emplace_back("TimeControl", s.time_control());
  return engine::write_pgn(game, clocks);
}

std::optional<Error> write_file_whole(const std::string& path, const std::string& text) {
  const std::string temp = path + ".tmp";
  const auto failed = [&](const std::string& step) {
    const std::string cause = std::strerror(errno);
    ::unlink(temp.c_str());
    return Error{path + ": " + step + ": " + cause};
  };
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
  if (fd < 0) return Error{temp + ": cannot create: " + std::strerror(errno)};
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = ENOSPC;
      ::close(fd);
      return failed("cannot write");
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    return failed("cannot sync");
  }
  ::close(fd);
  if (::rename(temp.c_str(), path.c_str()) != 0) return failed("cannot rename into place");
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  if (const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
  return std::nullopt;
}

void GameArchive::on_event(std::size_t board, const eboard::v1::Event& event, const SharedBytes&) {
  if (!event.has_game_ended() || event.game_ended().proposed()) return;
  const auto& snapshot = hub_.state(board).snapshot();
  auto text = snapshot_pgn(snapshot);
  const std::string path =
      dir_ + "/" + snapshot.board_id() + "-game" + std::to_string(snapshot.game_id()) + ".pgn";
  if (!text) {
    log_.warning("board " + snapshot.board_id() + ": cannot write " + path + ": " + text.error());
    return;
  }
  waiting_.push_back(File{snapshot.board_id(), path, std::move(text).value()});
  retry();
}

void GameArchive::retry() {
  scheduled_ = false;
  while (!waiting_.empty()) {
    const File& file = waiting_.front();
    if (auto error = write_file_whole(file.path, file.text)) {
      // The same text while the cause lasts: one log line with a count (log.h).
      log_.warning("board " + file.board + ": game not archived yet, retrying: " + error->message);
      schedule_retry();
      return;
    }
    if (delay_ != kFirstRetry) log_.info("board " + file.board + ": archived " + file.path);
    waiting_.pop_front();
  }
  delay_ = kFirstRetry;
}

void GameArchive::schedule_retry() {
  if (scheduled_ || !schedule_) return;
  scheduled_ = true;
  schedule_(delay_, [this] { retry(); });
  delay_ = std::min(delay_ * 2, kMaxRetry);
}

}  // namespace eboard::daemon
