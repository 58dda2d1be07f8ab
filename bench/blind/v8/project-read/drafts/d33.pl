package Quire::Controller::Loans;
use strict;
use warnings;
use Mojo::Base 'Mojolicious::Controller';
use DateTime;

use constant MAX_RENEWALS => 5;
use constant LOAN_DAYS    => 28;

# POST /loans/:id/renew
sub renew {
    my $self = shift;
    my $loan_id = $self->param('id');

    my $sth = $self->app->dbh->prepare(
        'SELECT id, item_id, patron_id, due_at, renewal_count FROM loans WHERE id = ? AND returned_at IS NULL'
    );
    $sth->execute($loan_id);
    my $loan = $sth->fetchrow_hashref;

    return $self->render(status => 404, json => { error => 'no_such_loan' }) unless $loan;

    if ($loan->{renewal_count} >= MAX_RENEWALS) {
        return $self->render(status => 409, json => { error => 'renewal_limit', limit => MAX_RENEWALS });
    }

    my $holds = $self->app->model('Holds')->count_waiting(item_id => $loan->{item_id});
    if ($holds > 0) {
        return $self->render(status => 409, json => { error => 'item_on_hold' });
    }

    my $new_due = DateTime->now(time_zone => 'Europe/Oslo')->add(days => LOAN_DAYS);
    $self->app->dbh->do(
        'UPDATE loans SET due_at = ?, renewal_count = renewal_count + 1 WHERE id = ?',
        undef, $new_due->iso8601, $loan_id,
    );

    $self->app->log->info("loan $loan_id renewed until " . $new_due->ymd);
    return $self->render(json => {
        id            => $loan_id,
        due_at        => $new_due->iso8601,
        renewals_left => MAX_RENEWALS - $loan->{renewal_count} - 1,
    });
}

1;
