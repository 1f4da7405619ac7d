// Where every board's events go: numbered, journalled, folded into the board's state and
// handed to every listener (consumers, the stdout printer), in that order (docs/design.md
// "Nothing is lost": an event reaches the journal before anyone sees it).
//
// Each event is serialised exactly once: the journal stores those bytes and every
// consumer shares one buffer holding the length-delimited Frame built around them
// (docs/design.md "Event loop and I/O"). Called on the event loop only; the only other thread
// is the sync worker, which touches nothing here but the journals' fds.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/core/board_state.h"
#include "daemon/core/event_source.h"
#include "daemon/core/journal.h"
#include "daemon/core/log.h"
#include "daemon/core/seq_reservation.h"
#include "daemon/core/sync_worker.h"
#include "eboard/v1/event.pb.h"

namespace eboard::daemon {

class EventHub final : public EventSource {
 public:
  // `log` gets journal and reservation failures (warnings and errors).
  EventHub(const std::vector<std::string>& board_ids, Logger& log);

  // Group commit (docs/design.md "Nothing is lost" without an fdatasync per event, and never
  // on the loop): events are written to their journals at once and collected into a
  // batch; a task posted with `post` closes the batch after the current handler and hands
  // "sync these journals" (kAlways) to the sync worker thread; when the worker is done it
  // posts the batch's delivery back to the loop. Batches are delivered in order; the loop
  // serves every other board and consumer meanwhile. A batch that needs no sync and has
  // no batch before it in flight is delivered at once. `post` must be thread-safe
  // (asio::post). Without group commit (tests) listeners are called at once.
  // Under FsyncPolicy::kAfterPublish a batch is delivered when it is closed and its
  // journals' sync is handed to the worker after that (publish first, sync right after),
  // unless it holds a seq above the board's durable reservation (start_numbering): then it
  // waits for the worker like a kAlways batch (counted in reservation_waits()).
  using Post = std::function<void(std::function<void()>)>;
  void set_group_commit(Post post);

  // A journal write the disk refused (journal.h "A full disk"): the record and those after
  // it wait; the hub says so (a warning, and a storageStatus event FAILING) and calls
  // retry_journals() after a delay from kFirstRetry doubling to kMaxRetry, on the loop's
  // timer that `schedule` arms (never sleeping); when every record is written it says so
  // again (storageStatus OK). Under kAlways the batches wait for their records (the
  // stream stops, nothing is published that is not on the disk); under kAfterPublish they
  // go out, and the seq reservation is rewritten to trust no restart, so that a stop
  // before the records are written leaves a seqsLost gap as a power cut does. Without
  // `schedule` (tests) retry_journals() is called by hand.
  using Schedule = std::function<void(std::chrono::milliseconds, std::function<void()>)>;
  void set_retry_schedule(Schedule schedule) { schedule_ = std::move(schedule); }
  void retry_journals();
  static constexpr std::chrono::milliseconds kFirstRetry{100};
  static constexpr std::chrono::milliseconds kMaxRetry{5000};

  void when_published(std::function<void()> then) override;

  // Installs a board's journal and folds its stored events into the board's state, so
  // numbering continues after them. Call before publishing on that board.
  void attach_journal(std::size_t board, Journal journal, const BoardState& recovered);

  // Decides where a journalled board's numbering continues (call after attach_journal,
  // before the loop runs): above every seq its damaged tail could have held (journal.h
  // Damage) and, with Reserve::kAhead (the daemon's choice under kAfterPublish), above
  // its seq reservation as decide_seq_start says; it then also reserves kReserveAhead
  // seqs beyond that durably (written and synced here), and publish() keeps the
  // reservation ahead from then on. When seqs may have been lost, the seqsLost event
  // naming them is the board's first new event.
  enum class Reserve : std::uint8_t { kNo, kAhead };
  Result<SeqStart> start_numbering(std::size_t board, const std::string& boot_id, Reserve reserve);
  // Events that had to wait for their reservation's sync (should stay 0: the raise comes
  // kRaiseMargin seqs early).
  std::uint64_t reservation_waits() const { return reservation_waits_; }

  // Clean shutdown, after the loop stopped: finishes the worker's queue, syncs every
  // journal here, then marks each seq reservation clean (the next start continues at
  // last_seq + 1 whatever the boot id). Publishing afterwards syncs inline.
  void close();

  // Gives the event its seq and board id, journals it, folds it and fans it out.
  // Returns the seq. A record the disk refuses waits (set_retry_schedule above).
  std::uint32_t publish(std::size_t board, eboard::v1::Event event);
  // Records waiting for the disk, over every board.
  std::size_t waiting_records() const;

  // The EventSource the stream server and the sinks read (event_source.h).
  void add_listener(EventListener* listener) override;
  void remove_listener(EventListener* listener) override;
  std::size_t board_count() const override { return boards_.size(); }
  std::optional<std::size_t> find_board(std::string_view id) const override;
  const std::string& board_id(std::size_t board) const override {
    return boards_[board].state.snapshot().board_id();
  }
  std::uint32_t last_seq(std::size_t board) const override { return boards_[board].last_seq; }
  const BoardState& state(std::size_t board) const override { return boards_[board].state; }
  std::vector<std::string> replay(std::size_t board, std::uint32_t from) const override;
  // For FsyncPolicy::kInterval: sync every journal written to since the last call, on
  // the sync worker when group commit is on (else here).
  void sync_journals();

 private:
  struct Board {
    explicit Board(std::string id) : state(std::move(id)) {}
    std::uint32_t last_seq = 0;
    std::optional<Journal> journal;
    BoardState state;
    struct Reservation {
      std::string path;
      std::string boot_id;
      std::uint32_t durable = 0;    // on the disk: seqs up to this may be published
      std::uint32_t requested = 0;  // written or being written by the worker
      // False while records wait for the disk: the sidecar then says boot "-" (trusts
      // no restart, seq_reservation.h).
      bool trusted = true;
    };
    std::optional<Reservation> reservation;
  };
  struct Pending {
    std::size_t board;
    eboard::v1::Event event;
    SharedBytes frame;
  };
  struct Batch {
    std::vector<Pending> events;
    std::vector<std::function<void()>> then;  // when_published() callbacks
    bool waits_for_reservation = false;
    std::uint64_t id = 0;
    bool synced = false;             // its worker request is done
    bool waits_for_journal = false;  // kAlways: records of it wait for the disk
  };
  void deliver(std::size_t board, const eboard::v1::Event& event, const SharedBytes& frame);
  void deliver(Batch& batch);
  void flush();
  void synced(std::uint64_t last_id);
  void deliver_ready();
  bool always_journal_waiting() const;
  // A write the disk refused on `board`'s journal just made its records wait.
  void journal_stalled(std::size_t board);
  void journal_recovered(std::size_t board);
  void schedule_retry();
  void write_reservation_async(std::size_t board);
  void extend_journals_when_calm();
  // Raises the board's reservation when `seq` comes near it; true when `seq` is above
  // the durable one (its batch must wait for the worker).
  bool reserve_ahead(std::size_t board, std::uint32_t seq);
  void reservation_written(std::size_t board, std::uint32_t reserved,
                           const std::optional<Error>& error);

  Logger& log_;
  std::vector<Board> boards_;
  std::vector<EventListener*> listeners_;
  Post post_;
  Batch pending_;                // written, not yet handed to the worker
  std::deque<Batch> in_flight_;  // handed to the worker, in order
  bool flush_scheduled_ = false;
  std::uint64_t next_batch_id_ = 1;
  Schedule schedule_;
  bool retry_scheduled_ = false;
  std::chrono::milliseconds retry_delay_ = kFirstRetry;
  // Per board: the first seq that waited since its journal stalled (0: not stalled).
  std::vector<std::uint32_t> stalled_from_;
  std::uint64_t reservation_waits_ = 0;
  std::string scratch_;
  // Destroyed first: joins after finishing queued syncs, while the journals are open.
  std::unique_ptr<SyncWorker> worker_;
};

// The length-delimited Frame{event} around an Event's binary form, without parsing it.
std::string frame_from_event_bytes(std::string_view event_bytes);

// The Event's binary form inside a frame made by frame_from_event_bytes: a view into
// `frame`, so a sink that publishes bare Events (MQTT) shares the hub's one encoding
// instead of serialising each event again. Empty for bytes that are not such a frame.
std::string_view event_bytes_of_frame(std::string_view frame);

}  // namespace eboard::daemon
