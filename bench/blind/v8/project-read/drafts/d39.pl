package Quire::Model::Loans;
use v5.36;
use Mojo::Base -base, -signatures;

use DateTime;

has 'dbh';

use constant {
    LOAN_PERIOD_DAYS => 28,
    MAX_RENEWALS     => 3,
};

sub find_open ($self, $loan_id) {
    return $self->dbh->selectrow_hashref(
        'SELECT id, item_id, patron_id, due_at, renewal_count
           FROM loans WHERE id = ? AND returned_at IS NULL',
        undef, $loan_id,
    );
}

sub checkout ($self, %args) {
    my $due = DateTime->now(time_zone => 'Europe/Oslo')
        ->add(days => $args{loan_period_days} // LOAN_PERIOD_DAYS);

    return $self->dbh->selectrow_hashref(
        'INSERT INTO loans (item_id, patron_id, branch_id, due_at, renewal_count)
         VALUES (?, ?, ?, ?, 0)
         RETURNING id, due_at',
        undef, @args{qw(item_id patron_id branch_id)}, $due->iso8601,
    );
}

sub can_renew ($self, $loan) {
    return $loan->{renewal_count} < MAX_RENEWALS;
}

sub renew ($self, $loan_id) {
    my $loan = $self->find_open($loan_id) or return;
    return { error => 'renewal_limit' } unless $self->can_renew($loan);

    # renewal counts from today, not from the old due date
    my $due = DateTime->now(time_zone => 'Europe/Oslo')->add(days => LOAN_PERIOD_DAYS);
    $self->dbh->do(
        'UPDATE loans SET due_at = ?, renewal_count = renewal_count + 1 WHERE id = ?',
        undef, $due->iso8601, $loan_id,
    );
    return { id => $loan_id, due_at => $due->iso8601, renewals_left => MAX_RENEWALS - $loan->{renewal_count} - 1 };
}

1;
