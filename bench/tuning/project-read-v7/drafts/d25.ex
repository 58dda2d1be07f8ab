defmodule Parley.Chat.UnreadTracker do
  @moduledoc """
  Keeps per-user unread counts hot in memory so the sidebar doesn't have to
  count messages on every load. A snapshot is flushed to Postgres every 30 seconds.
  """
  use GenServer

  require Logger

  alias Parley.Chat

  @table :unread_counts
  @flush_every :timer.seconds(30)

  def start_link(opts), do: GenServer.start_link(__MODULE__, opts, name: __MODULE__)

  def increment(user_id, conversation_id) do
    :mnesia.dirty_update_counter(@table, {user_id, conversation_id}, 1)
  end

  def reset(user_id, conversation_id) do
    :mnesia.dirty_write({@table, {user_id, conversation_id}, 0})
  end

  def count(user_id, conversation_id) do
    case :mnesia.dirty_read(@table, {user_id, conversation_id}) do
      [{@table, _key, n}] -> n
      [] -> 0
    end
  end

  @impl true
  def init(_opts) do
    :ok = ensure_table()
    {:ok, _ref} = :timer.send_interval(@flush_every, :flush)
    {:ok, %{}}
  end

  @impl true
  def handle_info(:flush, state) do
    rows =
      :mnesia.dirty_select(@table, [
        {{@table, :"$1", :"$2"}, [{:>, :"$2", 0}], [{{:"$1", :"$2"}}]}
      ])

    Chat.store_unread_snapshot(rows)
    Logger.debug("flushed #{length(rows)} unread counters")
    {:noreply, state}
  end

  defp ensure_table do
    opts = [attributes: [:key, :count], type: :set, ram_copies: [node() | Node.list()]]

    case :mnesia.create_table(@table, opts) do
      {:atomic, :ok} -> :ok
      {:aborted, {:already_exists, @table}} -> :ok
    end
  end
end
