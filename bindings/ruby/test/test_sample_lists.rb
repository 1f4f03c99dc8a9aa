# frozen_string_literal: true

# Lists of child view models of Tests/outside's libsample.so (MVVM_SAMPLE_LIBRARY), loaded beside
# the catalog's (playlist: an ObservableObject with @Published [Song]; board: an @Observable class
# holding [Tally]), read as Mvvm::List, their changes heard as Mvvm::Splice values that rebuild the
# host's copy.
require_relative "helper"

class TestLists < SampleTest
  # The host's copy of a list, kept only from splices: the identities of its items, read during
  # the splices that insert them.
  class Mirror
    attr_reader :ids, :splices

    def initialize(owner, name)
      @owner = owner
      @name = name
      @ids = []
      @splices = []
    end

    def to_proc
      proc do |name, splice, event|
        next unless event.splice? && name == @name

        @splices << splice
        list = @owner[@name]
        splice.apply(@ids) { |index| list[index].identity }
      end
    end
  end

  def mirror(owner, name)
    m = Mirror.new(owner, name)
    owner.subscribe(name, &m)
    m
  end

  def titles(list) = list.map(&:title)

  def test_a_list_property_is_described_and_reads_as_a_list_of_items
    assert_equal :list, @sample::Playlist.properties[:songs].type
    assert_equal "song", @sample::Playlist.properties[:songs].item_class
    assert_equal "tally", @sample::Board.properties[:tallies].item_class
    refute @sample::Playlist.properties[:songs].writable?
    refute_respond_to @sample::Playlist.new(@loop), :songs=
    playlist = @sample::Playlist.new(@loop)
    songs = playlist.songs
    assert_kind_of Mvvm::List, songs
    assert_kind_of Enumerable, songs
    assert_equal 0, songs.size
    assert_empty songs
    assert_nil songs[0]
    assert_equal [], songs.to_a
  end

  def test_the_list_is_live_and_indexes_like_an_array
    playlist = @sample::Playlist.new(@loop)
    songs = playlist.songs
    playlist.add_many("b,a,c")
    assert_equal 3, songs.size
    assert_equal 3, songs.length
    assert_equal 3, songs.count
    assert_instance_of @sample::Song, songs[0]
    assert_equal %w[b a c], titles(songs)
    assert_equal "c", songs[-1].title
    assert_equal "c", songs.last.title
    assert_equal "b", songs.first.title
    assert_equal %w[a c], songs[1, 5].map(&:title)
    assert_equal %w[b a], songs[0..1].map(&:title)
    assert_equal %w[a], songs[1...2].map(&:title)
    assert_equal %w[a c], songs[-2..].map(&:title)
    assert_equal %w[b a], songs.first(2).map(&:title)
    assert_equal %w[a c], songs.last(2).map(&:title)
    assert_nil songs[3]
    assert_nil songs[-4]
    assert_raises(IndexError) { songs.fetch(3) }
    assert_equal 1, songs.count { |song| song.title == "a" }
    assert_equal "a", songs.min_by(&:title).title
    playlist.filter = "a"
    assert_equal %w[a], titles(songs), "the same List reads the list as it is now"
    assert_equal %w[b a c], titles(playlist.all)
  end

  def test_items_are_live_objects_with_a_stable_identity
    playlist = @sample::Playlist.new(@loop)
    playlist.add_many("x,y")
    first = playlist.songs[0]
    again = playlist.songs[0]
    refute_equal first.handle, again.handle, "each read is a new handle"
    assert_equal first.identity, again.identity
    assert_equal first, again
    assert_equal first.hash, again.hash
    refute_equal first, playlist.songs[1]
    assert_equal [first.identity, playlist.songs[1].identity], playlist.songs.identities
    first.title = "z"
    assert_equal "z", again.title, "items are the view models themselves"
    playlist.remove_first
    assert_equal "z", first.title, "an item outlives its place in the list"
    assert_equal %w[y], titles(playlist.songs)
    assert_same playlist, first.parent
  end

  def test_subscribers_get_splices_that_rebuild_the_list
    playlist = @sample::Playlist.new(@loop)
    songs = mirror(playlist, :songs)
    all = mirror(playlist, :all)
    playlist.add_many("ab,b,ac,ad,c,ae")
    assert_equal [Mvvm::Splice.new(0, 0, 6)], songs.splices
    assert_equal playlist.songs.identities, songs.ids
    songs.splices.clear
    playlist.filter = "a"
    assert_equal [Mvvm::Splice.new(1, 1, 0), Mvvm::Splice.new(3, 1, 0)], songs.splices,
                 "a filter is the fewest splices, each counted in the list the one before left"
    assert_equal playlist.songs.identities, songs.ids
    playlist.filter = ""
    assert_equal playlist.songs.identities, songs.ids
    %i[rotate reverse sort_by_title remove_first].each do |command|
      playlist.public_send(command)
      assert_equal playlist.songs.identities, songs.ids, "after #{command}"
      assert_equal playlist.all.identities, all.ids, "all after #{command}"
    end
    songs.splices.clear
    playlist.filter = "zzz"
    playlist.filter = "zzz"
    assert_equal 1, songs.splices.size, "a change that leaves the list as it was says nothing"
    assert_equal [], songs.ids
  end

  def test_a_splice_is_a_frozen_value_in_an_event_of_kind_splice
    playlist = @sample::Playlist.new(@loop)
    events = []
    playlist.subscribe { |_name, _value, event| events << event }
    playlist.add("a")
    splices = events.select(&:splice?)
    assert_equal %i[songs all], splices.map(&:name).sort.reverse
    splice = splices.first.value
    assert_kind_of Mvvm::Splice, splice
    assert splice.frozen?
    assert_equal [0, 0, 1], [splice.index, splice.removed, splice.inserted]
    assert_equal :splice, splices.first.kind
    refute splices.first.property?
    assert_same playlist, splices.first.object
  end

  def test_inserted_items_are_readable_during_the_splice
    playlist = @sample::Playlist.new(@loop)
    seen = []
    playlist.subscribe(:songs) do |_name, splice|
      seen << playlist.songs[splice.index, splice.inserted].map(&:title)
    end
    playlist.add_many("a,b")
    playlist.add("c")
    assert_equal [%w[a b], %w[c]], seen
  end

  def test_a_change_made_in_a_subscribers_block_reaches_everyone_after_it
    playlist = @sample::Playlist.new(@loop)
    adds = 0
    first = Mirror.new(playlist, :songs)
    playlist.subscribe(:songs) do |*args|
      first.to_proc.call(*args)
      playlist.add("added in a block") if (adds += 1) == 1
    end
    second = mirror(playlist, :songs)
    playlist.add_many("x,y")
    assert_equal 2, first.splices.size
    assert_equal 2, second.splices.size
    assert_equal playlist.songs.identities, first.ids
    assert_equal playlist.songs.identities, second.ids
    assert_equal %w[x y], titles(playlist.songs).first(2)
  end

  def test_an_observable_owner_announces_its_list_too
    board = @sample::Board.new(@loop)
    tallies = mirror(board, :tallies)
    [1, 2, 3, 4].each { |start| board.add(start) }
    assert_equal [1, 2, 3, 4], board.tallies.map(&:total)
    assert_instance_of @sample::Tally, board.tallies[0]
    assert_equal board.tallies.identities, tallies.ids
    board.remove_odd
    assert_equal [2, 4], board.tallies.map(&:total)
    assert_equal board.tallies.identities, tallies.ids
    board.reverse
    assert_equal [4, 2], board.tallies.map(&:total)
    assert_equal board.tallies.identities, tallies.ids
    board.tallies[0].add
    assert_equal 5, board.tallies[0].total, "an item's commands work on the item in the list"
  end

  def test_errors
    playlist = @sample::Playlist.new(@loop)
    songs = playlist.songs
    assert_raises(Mvvm::InvalidArgumentError) { songs.item(0) }
    assert_raises(NoMethodError) { songs << 1 }
    error = assert_raises(Mvvm::ReadOnlyError) { playlist[:songs] = [] }
    assert_equal "playlist.songs is read-only", error.message
    assert_raises(Mvvm::TypeMismatchError) { Mvvm::List.new(playlist, :filter).size }
    assert_raises(Mvvm::UnknownNameError) { Mvvm::List.new(playlist, :nothing).size }
    playlist.close
    assert_raises(Mvvm::InvalidHandleError) { songs.size }
    assert_raises(Mvvm::InvalidHandleError) { playlist.songs }
  end
end
