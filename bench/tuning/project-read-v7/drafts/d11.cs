using System.Text.Json;
using Azure.Messaging.ServiceBus;
using Claimdesk.Application.Abstractions;
using Claimdesk.Domain.Claims;
using Microsoft.Extensions.Logging;

namespace Claimdesk.Application.Claims;

public sealed record CloseClaimCommand(Guid ClaimId, string ClosureReason, decimal FinalSettlement, string Currency);

public sealed record ClaimClosedEvent
{
    public required Guid ClaimId { get; init; }
    public required string ClaimantRef { get; init; }
    public required decimal FinalSettlement { get; init; }
    public required string Currency { get; init; }
    public required DateTimeOffset ClosedAt { get; init; }
}

public static class ClaimClosedMapper
{
    public static ClaimClosedEvent ToEvent(Claim claim) => new()
    {
        ClaimId = claim.Id,
        ClaimantRef = claim.ClaimantRef,
        FinalSettlement = claim.Settlement.Amount,
        Currency = claim.Settlement.Currency,
        ClosedAt = claim.ClosedAt!.Value,
    };
}

public sealed class ClaimClosureService(
    IClaimRepository claims,
    ServiceBusSender claimEventsSender,
    TimeProvider clock,
    ILogger<ClaimClosureService> logger) : IClaimClosureService
{
    public async Task CloseAsync(CloseClaimCommand command, CancellationToken ct)
    {
        var claim = await claims.GetAsync(command.ClaimId, ct)
            ?? throw new ClaimNotFoundException(command.ClaimId);

        claim.Close(
            command.ClosureReason,
            new Money(command.FinalSettlement, command.Currency),
            clock.GetUtcNow());

        await claims.SaveAsync(claim, ct);

        var message = new ServiceBusMessage(JsonSerializer.SerializeToUtf8Bytes(ClaimClosedMapper.ToEvent(claim)))
        {
            Subject = "claim-closed",
            MessageId = $"claim-closed-{claim.Id}",
            ContentType = "application/json",
        };

        await claimEventsSender.SendMessageAsync(message, ct);

        // The 7-year retention clock starts at ClosedAt; the archive service owns it from here.
        logger.LogInformation("Claim {ClaimId} closed, claimant {ClaimantRef}", claim.Id, claim.ClaimantRef);
    }
}
