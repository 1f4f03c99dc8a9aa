# frozen_string_literal: true

require_relative "helper"

# Foundation's values: Tests/outside's Order, of UUID, Date, URL and Decimal members. A date is a
# Time (in UTC when read); a UUID, URL or Decimal its text, which the library checks.
class TestSampleFoundationValues < SampleTest
  ID = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
  DIGITS38 = "12345678901234567890123456789012345678"

  def order
    @sample::Order.new(@loop)
  end

  def test_a_uuid_is_taken_in_any_case_and_given_in_upper_case
    o = order
    assert_equal "00000000-0000-0000-0000-000000000001", o.id
    o.id = ID.downcase
    assert_equal ID, o.id
    assert_equal ID, @sample::Order.new(@loop, ID.downcase).id
    error = assert_raises(Mvvm::InvalidArgumentError) { o.id = ID.delete("-") }
    assert_equal "order.id cannot hold \"#{ID.delete('-')}\": it is no UUID (8-4-4-4-12 hexadecimal digits)", error.message
    o.related = [ID.downcase]
    assert_equal [ID], o.related
  end

  def test_a_date_is_a_time_exact_before_1970_and_after_9999
    o = order
    assert_equal Time.utc(1970), o.placed
    assert o.placed.utc?
    [Time.utc(1969, 7, 20, 20, 17, 40.5r), Time.utc(1, 1, 1), Time.utc(10_000, 1, 1, 0, 0, 0.5r),
     Time.new(1900, 1, 1, 0, 0, 0, "+05:00")].each do |time|
      o.placed = time
      assert_equal time, o.placed
    end
    o.placed = -86_400
    assert_equal Time.utc(1969, 12, 31), o.placed
    assert_nil o.due
    o.due = Time.utc(2030)
    assert_equal Time.utc(2030), o.due
    assert_raises(Mvvm::TypeMismatchError) { o.placed = "1970-01-01" }
  end

  def test_a_url_is_its_absolute_string
    o = order
    o.link = "https://例え.jp/パス?q=ü#frag"
    assert_equal "https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9?q=%C3%BC#frag", o.link
    error = assert_raises(Mvvm::InvalidArgumentError) { o.link = "not a url" }
    assert_equal 'order.link cannot hold "not a url": it is no URL: it has no scheme (as https: or mailto:)', error.message
  end

  def test_a_decimal_is_its_exact_text
    o = order
    o.cost = DIGITS38
    assert_equal DIGITS38, o.cost
    o.cost = "-1.5E-3"
    assert_equal "-0.0015", o.cost
    o.cost = 7
    assert_equal "7", o.cost
    %w[1.2.3 NaN Infinity].push("#{DIGITS38}9").each do |text|
      assert_raises(Mvvm::InvalidArgumentError) { o.cost = text }
    end
    assert_equal "7", o.cost
  end

  def test_a_record_and_a_command_of_every_kind
    o = order
    at = Time.utc(1900, 1, 1, 0, 0, 0.5r)
    line = o.make_line(ID.downcase, at, "https://a.example/ü", "-0.00100")
    assert_equal [ID, at, "https://a.example/%C3%BC", "-0.001", nil], line.to_a
    o.line = line
    assert_equal line, o.line
  end

  def test_a_record_built_with_any_accepted_form_equals_itself_read_back
    o = order
    # A UUID's text in lower case, a date's seconds, a decimal's text with trailing zeros.
    line = @sample::LineItem.new(id: ID.downcase, at: 0.5, link: "https://a.example/", price: "-0.00100")
    assert_equal ID, line.id
    assert_equal Time.utc(1970, 1, 1, 0, 0, 0.5r), line.at
    o.line = line
    assert_equal line, o.line
    assert_equal line.hash, o.line.hash
    assert line.eql?(o.line)
    counted = line.dup.tap { |l| l.price = 7 }
    counted = @sample::LineItem.new(**counted.to_h, due: 86_400)
    assert_equal "7", counted.price
    assert_equal Time.utc(1970, 1, 2), counted.due
    o.line = counted
    assert_equal counted, o.line
    refute_equal line, o.line
    # What Ruby cannot read as the kind stays as given, for the library to refuse.
    kept = @sample::LineItem.new(**line.to_h, id: "not a uuid")
    assert_equal "not a uuid", kept.id
    assert_raises(Mvvm::InvalidArgumentError) { o.line = kept }
  end

  def test_an_async_result_and_a_change_event_are_times
    o = order
    heard = []
    o.subscribe(:placed) { |_name, value| heard << value }
    at = Time.utc(1900, 1, 1, 0, 0, 0.5r)
    o.placed = at
    assert_equal [at], heard
    o.postpone(at)
    call = o.postpone(Time.utc(2030))
    @loop.advance(0)
    assert_equal at, call.value
  end
end
