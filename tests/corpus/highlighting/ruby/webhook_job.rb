# frozen_string_literal: true

require "json"
require "net/http"

module Billing
  # Delivers signed webhook events to a customer's endpoint, retrying with backoff.
  class WebhookJob
    MAX_ATTEMPTS = 5
    RETRYABLE = %w[Timeout::Error Errno::ECONNREFUSED].freeze

    attr_reader :event, :attempts

    def initialize(event, endpoint:, secret: ENV.fetch("WEBHOOK_SECRET"))
      @event = event
      @endpoint = URI(endpoint)
      @secret = secret
      @attempts = 0
    end

    def perform
      loop do
        @attempts += 1
        response = deliver
        return :delivered if response.is_a?(Net::HTTPSuccess)
        raise DeliveryError, "HTTP #{response.code} from #{@endpoint.host}" if @attempts >= MAX_ATTEMPTS

        sleep backoff(@attempts)
      end
    rescue StandardError => e
      log(:error, "giving up on #{event[:id]}: #{e.message}")
      :failed
    end

    def self.enqueue(events, endpoint)
      events.select { |e| e[:type] =~ /\Ainvoice\.(paid|failed)\z/ }
            .map { |e| new(e, endpoint: endpoint) }
    end

    private

    def deliver
      body = JSON.generate(event)
      request = Net::HTTP::Post.new(@endpoint, "Content-Type" => "application/json")
      request["X-Signature"] = OpenSSL::HMAC.hexdigest("SHA256", @secret, body)
      request.body = body
      Net::HTTP.start(@endpoint.host, @endpoint.port, use_ssl: true) { |http| http.request(request) }
    end

    def backoff(attempt)
      (2**attempt) * 0.5 + rand(0.0..1.0)
    end

    def log(level, message)
      warn <<~LOG
        [#{level.upcase}] webhook #{event[:id]}
        #{message}
      LOG
    end
  end

  class DeliveryError < StandardError; end
end

job = Billing::WebhookJob.new({ id: "evt_1", type: "invoice.paid" }, endpoint: 'https://example.com/hooks')
puts job.perform == :delivered ? "ok" : "failed after #{job.attempts} attempts"
