using Claimdesk.Application.Abstractions;
using Claimdesk.Contracts.Claims;
using Claimdesk.Domain.Claims;
using Microsoft.Extensions.Logging;
using Polly;
using Polly.Retry;

namespace Claimdesk.Application.Claims;

public sealed class ClaimSubmissionService : IClaimSubmissionService
{
    private readonly IClaimRepository _claims;
    private readonly IRiskCheckClient _riskCheck;
    private readonly ILogger<ClaimSubmissionService> _logger;
    private readonly ResiliencePipeline<RiskVerdict> _riskPipeline;

    public ClaimSubmissionService(
        IClaimRepository claims,
        IRiskCheckClient riskCheck,
        ILogger<ClaimSubmissionService> logger)
    {
        _claims = claims;
        _riskCheck = riskCheck;
        _logger = logger;
        _riskPipeline = new ResiliencePipelineBuilder<RiskVerdict>()
            .AddRetry(new RetryStrategyOptions<RiskVerdict>
            {
                MaxRetryAttempts = 3,
                Delay = TimeSpan.FromSeconds(2),
                BackoffType = DelayBackoffType.Exponential,
            })
            .AddTimeout(TimeSpan.FromSeconds(8))
            .Build();
    }

    public async Task<SubmitClaimResult> SubmitClaim(SubmitClaimCommand command, CancellationToken ct)
    {
        double reserveAmount = command.EstimatedLoss * ReserveFactor(command.LossType);

        var claim = Claim.Open(
            command.PolicyNumber,
            command.LossType,
            command.LossDate,
            new Money((decimal)reserveAmount, command.Currency));

        // Score before persisting so adjusters never see an unscored claim in their queue.
        var verdict = await _riskPipeline.ExecuteAsync(
            async token => await _riskCheck.ScoreAsync(claim.ToRiskRequest(), token), ct);

        claim.ApplyRiskVerdict(verdict.Score, verdict.Reasons);
        await _claims.AddAsync(claim, ct);

        _logger.LogInformation("Claim {ClaimId} submitted with risk score {Score}", claim.Id, verdict.Score);

        return new SubmitClaimResult(claim.Id, claim.Status);
    }

    private static double ReserveFactor(LossType lossType) => lossType switch
    {
        LossType.Windscreen => 1.0,
        LossType.MotorCollision => 1.35,
        LossType.HomeWater => 1.6,
        LossType.BodilyInjury => 2.5,
        _ => 1.2,
    };
}
