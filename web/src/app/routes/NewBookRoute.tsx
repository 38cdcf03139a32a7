import { IconBookUpload } from '@tabler/icons-react';
import { PagePlaceholder } from '@/components/PagePlaceholder';

export default function NewBookRoute() {
  return (
    <PagePlaceholder
      title="Add a New Book"
      subtitle="Add the next book to your series"
      description="A form for the new book's title, description and status is on its way."
      icon={<IconBookUpload size={30} stroke={1.5} />}
    />
  );
}
