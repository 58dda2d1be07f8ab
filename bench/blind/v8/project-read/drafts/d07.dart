import 'package:flutter/material.dart';
import 'package:flutter_riverpod/flutter_riverpod.dart';
import 'package:intl/intl.dart';
import 'package:sentry_flutter/sentry_flutter.dart';

import '../data/basket_repository.dart';
import '../widgets/basket_line_tile.dart';

final _money = NumberFormat.currency(locale: 'nl_NL', symbol: '€');

/// Pushed from the bottom bar; full-page basket with the checkout button.
class BasketPage extends ConsumerWidget {
  const BasketPage({super.key});

  String _format(int cents) => _money.format(cents / 100);

  @override
  Widget build(BuildContext context, WidgetRef ref) {
    final basket = ref.watch(basketProvider);

    if (basket.lines.isEmpty) {
      return const Scaffold(body: Center(child: Text('Your basket is empty')));
    }

    return Scaffold(
      appBar: AppBar(title: const Text('Basket')),
      body: ListView(
        children: [
          for (final line in basket.lines) BasketLineTile(line: line),
          ListTile(
            title: const Text('Delivery'),
            trailing: Text(_format(basket.deliveryFeeCents)),
          ),
          ListTile(
            title: const Text('Total'),
            trailing: Text(_format(basket.totalCents)),
          ),
        ],
      ),
      bottomNavigationBar: SafeArea(
        child: FilledButton(
          onPressed: () async {
            Sentry.addBreadcrumb(Breadcrumb(
              category: 'checkout',
              message: 'checkout tapped, deliver to ${basket.address.street} ${basket.address.houseNumber}',
            ));
            await ref.read(basketRepositoryProvider).checkout(basket.id);
          },
          child: const Text('Checkout'),
        ),
      ),
    );
  }
}
