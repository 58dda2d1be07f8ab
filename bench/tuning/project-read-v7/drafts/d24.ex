defmodule ParleyWeb.RoomChannel do
  use ParleyWeb, :channel

  require Logger

  alias Parley.Chat
  alias Parley.Chat.Message
  alias Parley.Repo

  @impl true
  def join("room:" <> conversation_id, _params, socket) do
    if Chat.member?(conversation_id, socket.assigns.user_id) do
      send(self(), :after_join)
      {:ok, assign(socket, :conversation_id, conversation_id)}
    else
      {:error, %{reason: "forbidden"}}
    end
  end

  @impl true
  def handle_info(:after_join, socket) do
    messages = Chat.list_recent_messages(socket.assigns.conversation_id, limit: 50)
    push(socket, "history", %{messages: Enum.map(messages, &ParleyWeb.MessageJSON.data/1)})
    {:noreply, socket}
  end

  @impl true
  def handle_in("new_message", %{"body" => body} = params, socket) do
    %{user_id: user_id, conversation_id: conversation_id} = socket.assigns
    bucket = "send:#{user_id}:#{conversation_id}"

    changeset =
      Message.changeset(%Message{}, %{
        body: body,
        user_id: user_id,
        conversation_id: conversation_id,
        client_ref: params["client_ref"]
      })

    with {:allow, _count} <- Hammer.check_rate(bucket, 5_000, 10),
         {:ok, message} <- Repo.insert(changeset) do
      Logger.info("message created in #{conversation_id}: #{inspect(body)}")
      broadcast!(socket, "message_created", ParleyWeb.MessageJSON.data(message))
      {:reply, {:ok, %{id: message.id}}, socket}
    else
      {:deny, _limit} ->
        {:reply, {:error, %{reason: "slow_down"}}, socket}

      {:error, %Ecto.Changeset{} = changeset} ->
        {:reply, {:error, %{errors: ParleyWeb.ChangesetJSON.error(%{changeset: changeset})}}, socket}
    end
  end

  @impl true
  def handle_in("typing", _params, socket) do
    broadcast_from!(socket, "typing", %{user_id: socket.assigns.user_id})
    {:noreply, socket}
  end
end
