using AutoMapper;
using Claimdesk.Application.Abstractions;
using Claimdesk.Domain.Claims;

namespace Claimdesk.Application.Claims.Queries;

public class ClaimSummaryDto
{
    public Guid Id { get; set; }
    public string PolicyNumber { get; set; } = "";
    public string Status { get; set; } = "";
    public decimal ReserveAmount { get; set; }
    public string Currency { get; set; } = "EUR";
    public DateOnly LossDate { get; set; }
    public string ClaimantRef { get; set; } = "";
    public int DocumentCount { get; set; }
}

public sealed class ClaimQueriesProfile : Profile
{
    public ClaimQueriesProfile()
    {
        CreateMap<Claim, ClaimSummaryDto>()
            .ForMember(d => d.Status, o => o.MapFrom(s => s.Status.ToString()))
            .ForMember(d => d.ReserveAmount, o => o.MapFrom(s => s.Reserve.Amount))
            .ForMember(d => d.Currency, o => o.MapFrom(s => s.Reserve.Currency))
            .ForMember(d => d.DocumentCount, o => o.MapFrom(s => s.Documents.Count));
    }
}

public sealed class GetOpenClaimsQueryHandler
{
    private readonly IClaimReadRepository _claims;
    private readonly IMapper _mapper;

    public GetOpenClaimsQueryHandler(IClaimReadRepository claims, IMapper mapper)
    {
        _claims = claims;
        _mapper = mapper;
    }

    public async Task<IReadOnlyList<ClaimSummaryDto>> HandleAsync(Guid claimantId, CancellationToken ct)
    {
        var open = await _claims.ListOpenForClaimantAsync(claimantId, ct);
        return _mapper.Map<List<ClaimSummaryDto>>(open);
    }
}
