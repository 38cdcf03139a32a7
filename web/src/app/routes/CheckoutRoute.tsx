import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { IconShoppingCartCheck } from '@tabler/icons-react';
import { TOASTS } from '@/lib/copy/toasts';
import { PagePlaceholder } from '@/components/PagePlaceholder';
import { PageSpinner } from '@/components/PageSpinner';
import { toast } from '@/lib/toast';

/** /checkout?productId&amount: without both, the toast "Missing product information" and "/" (000 §2). */
export default function CheckoutRoute() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const complete = Boolean(params.get('productId')) && Boolean(params.get('amount'));
  const warned = useRef(false);

  useEffect(() => {
    if (complete || warned.current) return;
    warned.current = true;
    toast.show(TOASTS.missingProductInformation);
    void navigate('/', { replace: true });
  }, [complete, navigate]);

  if (!complete) return <PageSpinner />;
  return (
    <PagePlaceholder
      title="Complete your purchase"
      subtitle="Secure checkout"
      description="The payment form will appear here."
      icon={<IconShoppingCartCheck size={30} stroke={1.5} />}
    />
  );
}
