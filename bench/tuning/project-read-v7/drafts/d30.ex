defmodule Parley.Workers.UnreadDigest do
  @moduledoc """
  Morning e-mail digest for people with messages unread for more than 12 hours.

  Oban cron enqueues the fan-out job: {"0 7 * * *", Parley.Workers.UnreadDigest}
  which then inserts one job per user.
  """
  use Oban.Worker, queue: :mailers, max_attempts: 5

  require Logger

  alias Parley.{Accounts, Chat, Mailer}
  alias Parley.Notifications.DigestEmail

  @impl Oban.Worker
  def perform(%Oban.Job{args: %{"user_id" => user_id}}) do
    with {:ok, user} <- Accounts.fetch_user(user_id),
         :ok <- digest_enabled(user),
         [_ | _] = unread <- Chat.unread_by_conversation(user.id, older_than_hours: 12),
         {:ok, _receipt} <- user |> DigestEmail.build(unread) |> Mailer.deliver() do
      Logger.info("digest sent", user_id: user.id, conversations: length(unread))
      :ok
    else
      [] ->
        :ok

      {:cancel, reason} ->
        {:cancel, reason}

      {:error, reason} ->
        Logger.warning("digest failed", user_id: user_id, reason: inspect(reason))
        {:error, reason}
    end
  end

  def perform(%Oban.Job{}) do
    Accounts.stream_user_ids_with_unread(fn ids ->
      ids
      |> Stream.map(&new(%{"user_id" => &1}))
      |> Stream.chunk_every(500)
      |> Enum.each(&Oban.insert_all/1)
    end)

    :ok
  end

  defp digest_enabled(%{digest_enabled: true}), do: :ok
  defp digest_enabled(_user), do: {:cancel, :digest_disabled}
end
