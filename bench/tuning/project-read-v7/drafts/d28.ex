defmodule Parley.Workers.PurgeDeleted do
  @moduledoc """
  Hard-deletes messages 30 days after they were soft-deleted.

  Scheduled nightly through the Oban cron plugin (config/runtime.exs):

      {"15 3 * * *", Parley.Workers.PurgeDeleted}

  Attachment objects in the bucket are removed by the bucket lifecycle rule,
  not here.
  """
  use Oban.Worker, queue: :maintenance, max_attempts: 3

  import Ecto.Query

  require Logger

  alias Parley.Repo
  alias Parley.Chat.{Attachment, Message}

  @retention_hours 720
  @batch_size 5_000

  @impl Oban.Worker
  def perform(%Oban.Job{}) do
    cutoff = DateTime.add(DateTime.utc_now(), -@retention_hours, :hour)
    purged = purge(cutoff, 0)

    Logger.info("purged soft-deleted messages", count: purged, cutoff: DateTime.to_iso8601(cutoff))
    :ok
  end

  @impl Oban.Worker
  def timeout(_job), do: :timer.minutes(10)

  defp purge(cutoff, acc) do
    ids =
      from(m in Message,
        where: not is_nil(m.deleted_at) and m.deleted_at < ^cutoff,
        select: m.id,
        limit: @batch_size
      )
      |> Repo.all()

    case ids do
      [] ->
        acc

      ids ->
        {:ok, n} =
          Repo.transaction(fn ->
            Repo.delete_all(from a in Attachment, where: a.message_id in ^ids)
            {n, _} = Repo.delete_all(from m in Message, where: m.id in ^ids)
            n
          end)

        purge(cutoff, acc + n)
    end
  end
end
