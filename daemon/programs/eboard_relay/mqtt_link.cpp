#include "daemon/programs/eboard_relay/mqtt_link.h"

#include <mosquitto.h>

#include <boost/asio/post.hpp>

namespace eboard::daemon {
namespace {

namespace asio = boost::asio;
constexpr int kQos = 1;
constexpr auto kMiscPeriod = std::chrono::milliseconds(500);
constexpr int kKeepaliveSeconds = 10;

}  // namespace

MqttLink::MqttLink(asio::io_context& io, Options options, Message on_message, Log log)
    : io_(io),
      options_(std::move(options)),
      on_message_(std::move(on_message)),
      log_(std::move(log)),
      reconnect_timer_(io),
      misc_timer_(io) {
  mosquitto_lib_init();
}

MqttLink::~MqttLink() {
  ++generation_;
  if (stream_) {
    boost::system::error_code ignored;
    stream_->cancel(ignored);
    stream_->release();
  }
  if (mosq_ != nullptr) mosquitto_destroy(mosq_);
  mosquitto_lib_cleanup();
}

void MqttLink::start() { connect(); }

void MqttLink::connect() {
  ++generation_;
  mosq_ = mosquitto_new(nullptr, true, this);
  if (mosq_ == nullptr) return lose("cannot create a client");
  mosquitto_connect_callback_set(mosq_, &MqttLink::on_connect_cb);
  mosquitto_message_callback_set(mosq_, &MqttLink::on_message_cb);
  mosquitto_int_option(mosq_, MOSQ_OPT_TCP_NODELAY, 1);
  if (!options_.user.empty()) {
    mosquitto_username_pw_set(mosq_, options_.user.c_str(),
                              options_.password.empty() ? nullptr : options_.password.c_str());
  }
  // A numeric address does not block; a host name is resolved here, once per attempt.
  const int rc =
      mosquitto_connect_async(mosq_, options_.host.c_str(), options_.port, kKeepaliveSeconds);
  if (rc != MOSQ_ERR_SUCCESS) return lose(std::string("connect: ") + mosquitto_strerror(rc));
  stream_.emplace(io_, mosquitto_socket(mosq_));
  reading_ = writing_ = false;
  watch_read();
  watch_write();
  arm_misc();
}

void MqttLink::lose(const std::string& reason) {
  if (!lost_reported_) {
    log_("mqtt " + options_.host + ":" + std::to_string(options_.port) + ": " + reason +
         "; retrying");
    lost_reported_ = true;
  }
  ++generation_;
  connected_ = false;
  if (stream_) {
    boost::system::error_code ignored;
    stream_->cancel(ignored);
    stream_->release();
    stream_.reset();
  }
  if (mosq_ != nullptr) {
    mosquitto_destroy(mosq_);
    mosq_ = nullptr;
  }
  misc_timer_.cancel();
  reconnect_timer_.expires_after(backoff_.next_delay());
  reconnect_timer_.async_wait([this](const boost::system::error_code& error) {
    if (!error) connect();
  });
}

void MqttLink::watch_read() {
  if (reading_ || !stream_) return;
  reading_ = true;
  stream_->async_wait(asio::posix::stream_descriptor::wait_read,
                      [this, g = generation_](const boost::system::error_code& error) {
                        if (g != generation_) return;
                        reading_ = false;
                        if (error) return;
                        const int rc = mosquitto_loop_read(mosq_, 64);
                        if (g != generation_) return;
                        if (rc != MOSQ_ERR_SUCCESS) return lose(mosquitto_strerror(rc));
                        watch_read();
                        watch_write();
                      });
}

void MqttLink::watch_write() {
  if (writing_ || !stream_ || !mosquitto_want_write(mosq_)) return;
  writing_ = true;
  stream_->async_wait(asio::posix::stream_descriptor::wait_write,
                      [this, g = generation_](const boost::system::error_code& error) {
                        if (g != generation_) return;
                        writing_ = false;
                        if (error) return;
                        const int rc = mosquitto_loop_write(mosq_, 64);
                        if (g != generation_) return;
                        if (rc != MOSQ_ERR_SUCCESS) return lose(mosquitto_strerror(rc));
                        watch_write();
                      });
}

void MqttLink::arm_misc() {
  misc_timer_.expires_after(kMiscPeriod);
  misc_timer_.async_wait([this, g = generation_](const boost::system::error_code& error) {
    if (error || g != generation_) return;
    const int rc = mosquitto_loop_misc(mosq_);
    if (rc != MOSQ_ERR_SUCCESS) return lose(mosquitto_strerror(rc));
    watch_write();
    arm_misc();
  });
}

void MqttLink::publish(const std::string& topic, const std::string& payload) {
  if (!connected_ || mosq_ == nullptr) return;
  mosquitto_publish(mosq_, nullptr, topic.c_str(), static_cast<int>(payload.size()), payload.data(),
                    kQos, false);
  watch_write();
}

void MqttLink::on_connect_cb(mosquitto*, void* self, int rc) {
  auto* link = static_cast<MqttLink*>(self);
  if (rc != 0) {
    asio::post(link->io_, [link, g = link->generation_, rc] {
      if (g == link->generation_)
        link->lose(std::string("refused: ") + mosquitto_connack_string(rc));
    });
    return;
  }
  link->connected_ = true;
  link->lost_reported_ = false;
  link->backoff_.reset();
  link->log_("mqtt " + link->options_.host + ":" + std::to_string(link->options_.port) +
             ": connected");
  for (const std::string& filter : link->options_.filters)
    mosquitto_subscribe(link->mosq_, nullptr, filter.c_str(), kQos);
}

void MqttLink::on_message_cb(mosquitto*, void* self, const mosquitto_message* message) {
  if (message->topic == nullptr) return;
  static_cast<MqttLink*>(self)->on_message_(
      message->topic, std::string(static_cast<const char*>(message->payload),
                                  static_cast<std::size_t>(message->payloadlen)));
}

}  // namespace eboard::daemon
