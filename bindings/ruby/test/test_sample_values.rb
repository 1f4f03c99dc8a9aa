# frozen_string_literal: true

require_relative "helper"

# Optionals, arrays, records and bytes; commands with named arguments, results and errors;
# computed properties: Tests/outside's Profile (an ObservableObject) and Wishlist (an
# @Observable class), whose types the library alone checks.
class TestSampleValues < SampleTest
  def profile
    @sample::Profile.new(@loop)
  end

  def test_values_of_every_kind_read_as_ruby_values
    p = profile
    assert_equal ["", "", "", nil, [], [], nil, 0], [p.first, p.last, p.full_name, p.limit, p.tags, p.scores, p.address, p.saves]
    assert_equal "".b, p.avatar
    assert_equal Encoding::BINARY, p.avatar.encoding
    assert_equal({ "first" => "", "last" => "", "full_name" => "", "limit" => nil, "tags" => [], "scores" => [],
                   "address" => nil, "avatar" => [], "saves" => 0 }, Mvvm.snapshot(p))
  end

  def test_an_optional_is_set_to_a_value_and_to_nil_and_notified
    p = profile
    events = Recorder.new
    p.subscribe(:limit, &events)
    p.limit = 5
    assert_equal 5, p.limit
    p.limit = nil
    assert_nil p.limit
    p.limit = nil
    assert_equal [[:limit, 5], [:limit, nil]], events.events
    error = assert_raises(Mvvm::InvalidArgumentError) { p.first = nil }
    assert_equal "profile.first is of type string, not optional: it cannot be null", error.message
  end

  def test_arrays_are_set_whole_and_notified_whole
    p = profile
    events = Recorder.new
    p.subscribe(&events)
    p.tags = %w[swift ruby]
    p.scores = [1, 2.5] # an Integer is taken for a double
    p.tags = %w[swift ruby]
    assert_equal [%w[swift ruby], [1.0, 2.5]], [p.tags, p.scores]
    assert_equal [[:tags, %w[swift ruby]], [:scores, [1.0, 2.5]]], events.events
    error = assert_raises(Mvvm::TypeMismatchError) { p.tags = ["a", 1] }
    assert_equal "profile.tags[1] is of type string, not int", error.message
    assert_equal %w[swift ruby], p.tags, "a refused value changes nothing"
  end

  def test_records_are_frozen_structs_given_as_structs_or_hashes
    address = @sample::Address
    assert_same address, @sample.records["address"]
    assert_equal %i[street city zip_code], address.members
    assert_equal %w[street city zip_code], address.field_names
    assert_equal "A postal address.", address.doc
    p = profile
    events = Recorder.new
    p.subscribe(:address, &events)
    p.address = address.new(street: "1 Main St", city: "Springfield")
    read = p.address
    assert_instance_of address, read
    assert read.frozen?
    assert_equal address.new(street: "1 Main St", city: "Springfield", zip_code: nil), read
    p.address = { street: "2 Elm St", city: "Shelbyville", zip_code: "12345" }
    assert_equal "12345", p.address.zip_code
    p.address = nil
    assert_equal [read, address.new(street: "2 Elm St", city: "Shelbyville", zip_code: "12345"), nil], events.values
    error = assert_raises(Mvvm::InvalidArgumentError) { p.address = { street: "3 Oak St" } }
    assert_equal "profile.address: record address needs its field city", error.message
    error = assert_raises(Mvvm::InvalidArgumentError) { p.address = { street: "3 Oak St", city: "X", floor: 2 } }
    assert_match(/\Aprofile\.address: record address has no field named "floor"/, error.message)
    error = assert_raises(Mvvm::TypeMismatchError) { p.address = { street: 3, city: "X" } }
    assert_equal "profile.address.street is of type string, not int", error.message
    assert_nil p.address
  end

  def test_bytes_cross_as_binary_strings_nul_included
    p = profile
    events = Recorder.new
    p.subscribe(:avatar, &events)
    p.avatar = "\x89PNG\0\xFF".b
    assert_equal "\x89PNG\0\xFF".b, p.avatar
    assert_equal ["\x89PNG\0\xFF".b], events.values
    error = assert_raises(Mvvm::TypeMismatchError) { p.avatar = "text" }
    assert_equal "profile.avatar is of type bytes, not string", error.message
  end

  def test_a_command_with_three_named_arguments_returns_a_record
    p = profile
    p.tags = %w[a b]
    contact = p.contact(name: "Ada", street: "1 Main St", city: "London")
    assert_instance_of @sample::Contact, contact
    assert_equal @sample::Contact.new(name: "Ada", address: @sample::Address.new(street: "1 Main St", city: "London"),
                                      tags: %w[a b]), contact
    assert contact.frozen?
    assert contact.address.frozen?
    assert contact.tags.frozen?
    assert_equal contact, p.contact("Ada", city: "London", street: "1 Main St"), "by position, then by name"
    assert_equal contact, Mvvm.call(p, :contact, "Ada", "1 Main St", "London")
    error = assert_raises(Mvvm::InvalidArgumentError) { p.contact(name: "Ada", street: "x", town: "y") }
    assert_equal 'profile.contact has no argument named "town"', error.message
    error = assert_raises(Mvvm::InvalidArgumentError) { p.contact("Ada", name: "Bo", street: "x", city: "y") }
    assert_match(/name/, error.message)
  end

  def test_a_throwing_command_raises_command_error_and_what_it_changed_first_is_notified
    p = profile
    p.tags = %w[a b]
    saves = Recorder.new
    p.subscribe(:saves, &saves)
    p.move_tag(from: 1, to: 0)
    assert_equal %w[b a], p.tags
    error = assert_raises(Mvvm::CommandError) { p.move_tag(from: 0, to: 5) }
    assert_equal "profile.move_tag failed: no tag at 5 (there are 2)", error.message
    assert_equal [12, "MVVM_ERR_COMMAND_FAILED", "mvvm_call_named"], [error.status, error.status_name, error.function]
    assert_kind_of Mvvm::Error, error
    assert_equal [1, 2], saves.values, "the failed move was counted, and notified"
    error = assert_raises(Mvvm::CommandError) { p.save }
    assert_equal "profile.save failed: the profile has no address", error.message
  end

  def test_a_signal_carries_a_record
    p = profile
    p.first = "Ada"
    p.address = { street: "1 Main St", city: "London" }
    saved = Recorder.new
    p.subscribe(:saved, &saved)
    contact = p.save
    assert_equal [[:saved, contact]], saved.events
    assert_equal ["Ada", "London"], [contact.name, contact.address.city]
  end

  def test_a_computed_property_is_notified_once_per_operation_with_its_new_value
    p = profile
    seen = []
    p.subscribe(:full_name) { |_, value| seen << [value, p.full_name] }
    p.first = "Ada"
    p.last = "Lovelace"
    p.last = "Lovelace"
    p.tags = ["x"] # an operation that fires objectWillChange but leaves full_name as it is
    assert_equal [["Ada", "Ada"], ["Ada Lovelace", "Ada Lovelace"]], seen
  end

  def test_wishlist_optional_elements_and_a_computed_total
    w = @sample::Wishlist.new(@loop)
    events = Recorder.new
    w.subscribe(&events)
    assert_equal 1, w.add("pen", price: 2.5)
    assert_equal 2, w.add(item: "cap") # an optional argument left out is nil
    assert_equal [%w[pen cap], [2.5, nil], 2.5], [w.items, w.prices, w.total]
    assert_equal [[:items, ["pen"]], [:prices, [2.5]], [:total, 2.5], [:items, %w[pen cap]], [:prices, [2.5, nil]]],
                 events.events
    w.prices = [1, nil]
    assert_equal [1.0, nil], w.prices
    assert_equal 1.0, w.total
    w.budget = 10
    assert_equal 10.0, w.budget
    w.home = @sample::Address.new(street: "1 Main St", city: "London")
    assert_equal "London", w.home.city
    assert_equal "cap", w.item(1)
    error = assert_raises(Mvvm::CommandError) { w.item(index: 5) }
    assert_equal "wishlist.item failed: no item 5", error.message
  end

  # Speaker and Slot have no Codable (registered by their fields); Agenda's callback properties
  # are signals.
  def test_a_record_registered_by_its_fields_and_a_callback_property_as_a_signal
    speaker = @sample::Speaker
    assert_equal %w[name is_completed email], speaker.field_names
    agenda = @sample::Agenda.new(@loop)
    events = Recorder.new
    agenda.subscribe(:speaker_added, &events)
    agenda.subscribe(:speaker_changed, &events)
    ada = speaker.new(name: "Ada", is_completed: false)
    assert_equal 1, agenda.add(ada)
    assert_equal ada.to_h.merge(is_completed: true), agenda.next_.to_h
    agenda.slot = { "speaker" => ada, "minutes" => 25 }
    assert_equal [ada, nil, 25], [agenda.slot.speaker, agenda.slot.backup, agenda.slot.minutes]
    assert_equal [[:speaker_added, ada], [:speaker_changed, nil]], events.events
    assert_equal 1, agenda.own_calls
    error = assert_raises(Mvvm::InvalidArgumentError) { agenda.speaker = speaker.new(name: "", is_completed: false) }
    assert_equal 'agenda.speaker cannot hold {"name": "", "is_completed": false, "email": null}: a speaker has a name',
                 error.message
  end
end
